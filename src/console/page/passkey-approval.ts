// "Approve with passkey": the server's challenge for this person's approval of exactly this digest,
// the browser's prompt, then the confirm carrying the assertion. Each step's refusal is a decision's
// failure like any other, in the person's words; nothing is approved unless the server checked it.
import type { PasskeyAssertion } from '../../passkeys/passkey-types.js';
import type { Api, Decision } from './api.js';
import { signWithPasskey } from './webauthn.js';

/** One approval signed with the person's passkey: challenge → `navigator.credentials.get` → `confirm`. */
export async function approveWithPasskey(
  api: Api,
  target: { readonly kind: 'confirmation' | 'bundle'; readonly id: string; readonly digest: string },
  confirm: (assertion: PasskeyAssertion) => Promise<Decision>,
): Promise<Decision> {
  const challenge = await api.passkeyChallenge(target.kind, target.id, target.digest);
  if (!challenge.ok) return challenge;
  const signed = await signWithPasskey(challenge.options);
  if (!signed.ok) return { ok: false, code: signed.code, error: '' };
  return confirm(signed.value);
}

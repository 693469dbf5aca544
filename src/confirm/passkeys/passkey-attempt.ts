import {
  bindingOf,
  clientDataOf,
  type PasskeyDecision,
  splitChallenge,
} from '../../passkeys/passkey-challenge.js';
import type { PasskeyAssertion, PasskeyProof } from '../../passkeys/passkey-types.js';
import type { PasskeyVerifier } from '../../passkeys/passkey-verifier.js';
import type { ConfirmationStore } from '../../stores/store.js';
import { hasCapability } from '../../stores/store-capabilities.js';
import { describeThrown } from '../../util/describe-thrown.js';
import { isRecord } from '../../util/is-record.js';

/** What proving a decision with an assertion gave: its proof for the log, or why it proves nothing. */
export type PasskeyOutcome =
  | { readonly ok: true; readonly proof: PasskeyProof }
  | { readonly ok: false; readonly code: 'PASSKEY_REQUIRED' | 'PASSKEY_INVALID'; readonly detail: string };

/** What proving needs of the registry: its store, its verifier, its clock. */
export interface PasskeyProving {
  readonly store: ConfirmationStore;
  readonly passkeys?: PasskeyVerifier | undefined;
  readonly now: () => number;
}

const MAX_FIELD = 20_000;

/**
 * An assertion as given to `confirm`, read once at the edge into a frozen copy of its strings;
 * `undefined` when it is not one (then proving answers `PASSKEY_INVALID`).
 */
export function readAssertion(value: unknown): PasskeyAssertion | undefined {
  try {
    if (!isRecord(value) || !isRecord(value.response)) return undefined;
    const { id, rawId, type } = value;
    const { clientDataJSON, authenticatorData, signature, userHandle } = value.response;
    const texts = [id, rawId, clientDataJSON, authenticatorData, signature];
    if (!texts.every((text) => typeof text === 'string' && text.length > 0 && text.length <= MAX_FIELD))
      return undefined;
    if (type !== 'public-key') return undefined;
    if (userHandle !== undefined && (typeof userHandle !== 'string' || userHandle.length > MAX_FIELD))
      return undefined;
    return Object.freeze({
      id: id as string,
      rawId: rawId as string,
      type: 'public-key',
      clientExtensionResults: {},
      response: Object.freeze({
        clientDataJSON: clientDataJSON as string,
        authenticatorData: authenticatorData as string,
        signature: signature as string,
        ...(userHandle === undefined ? {} : { userHandle: userHandle as string }),
      }),
    });
  } catch {
    return undefined;
  }
}

/**
 * One decision's assertion, proved at most once: the first `prove` takes its challenge's nonce (a
 * second use anywhere finds none), checks what the challenge binds against the decision recomputed
 * now, the credential (this approver's), the signature and the counter (moved forward by one
 * conditional write). Later `prove`s of the same decision — a bundle's steps, a quorum's re-read —
 * answer the same; of another decision, no.
 */
export class PasskeyAttempt {
  readonly #assertion: PasskeyAssertion | undefined;
  #proved: { readonly binding: string; readonly outcome: Promise<PasskeyOutcome> } | undefined;

  constructor(given: unknown) {
    this.#assertion = readAssertion(given);
  }

  prove(ctx: PasskeyProving, decision: Omit<PasskeyDecision, 'rpId'>): Promise<PasskeyOutcome> {
    const { passkeys } = ctx;
    if (passkeys === undefined)
      return Promise.resolve({ ok: false, code: 'PASSKEY_REQUIRED', detail: 'not-configured' });
    const binding = bindingOf({ ...decision, rpId: passkeys.rpID });
    if (this.#proved !== undefined)
      return this.#proved.binding === binding
        ? this.#proved.outcome
        : Promise.resolve(invalid('the assertion was made for another decision'));
    const outcome = this.#proveOnce(ctx, passkeys, decision.approver, binding).catch((error: unknown) =>
      invalid(`it could not be checked: ${describeThrown(error).slice(0, 200)}`),
    );
    this.#proved = { binding, outcome };
    return outcome;
  }

  async #proveOnce(
    ctx: PasskeyProving,
    passkeys: PasskeyVerifier,
    approver: string,
    binding: string,
  ): Promise<PasskeyOutcome> {
    const assertion = this.#assertion;
    if (assertion === undefined) return invalid('not a WebAuthn assertion');
    const { store } = ctx;
    if (!hasCapability(store, 'passkeys')) return invalid('this confirmation store keeps no passkeys');
    const client = clientDataOf(assertion.response.clientDataJSON);
    const parts = client === undefined ? undefined : splitChallenge(client.challenge);
    if (client === undefined || parts === undefined)
      return invalid('its challenge is not one this registry made');
    // Taken (deleted) before anything else is looked at: a second use of it finds nothing.
    const taken = await store.takePasskeyChallenge(parts.nonce, ctx.now());
    if (taken === undefined) return invalid('its challenge was already used, or expired');
    if (taken.purpose !== 'approve' || taken.binding !== parts.binding || parts.binding !== binding)
      return invalid('the assertion was made for another decision');
    if (taken.approver !== approver) return invalid('the assertion was made for another approver');
    const credential = await store.findPasskey(assertion.id);
    if (credential === undefined || credential.approver !== approver)
      return invalid("the passkey is not one of this approver's");
    const checked = await passkeys.verifyAssertion({
      assertion,
      expectedChallenge: client.challenge,
      credential,
    });
    if (!checked.ok) return invalid(checked.error);
    const moved = await store.advancePasskeyCounter(credential.id, {
      from: credential.counter,
      to: checked.counter,
    });
    if (!moved) return invalid('its signature counter did not move forward (a cloned authenticator?)');
    const { response } = assertion;
    return {
      ok: true,
      proof: {
        credentialId: assertion.id,
        authenticatorData: response.authenticatorData,
        clientDataJSON: response.clientDataJSON,
        signature: response.signature,
        ...(response.userHandle === undefined ? {} : { userHandle: response.userHandle }),
      },
    };
  }
}

function invalid(detail: string): PasskeyOutcome {
  return { ok: false, code: 'PASSKEY_INVALID', detail };
}

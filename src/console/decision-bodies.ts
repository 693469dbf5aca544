import type { PasskeyAssertion } from '../passkeys/passkey-types.js';
import { isRecord } from '../util/is-record.js';
import type { DecisionAsk } from './decisions.js';

type Body = Readonly<Record<string, unknown>>;

/** A text field: absent (or empty) is `undefined`; anything but a string is a bad request (`null`). */
function optionalText(body: Body, field: string): string | undefined | null {
  const value = body[field];
  if (value === undefined || value === '') return undefined;
  return typeof value === 'string' ? value : null;
}

/**
 * What a decision's body asks, or `undefined` for a body the console does not accept. Only the named
 * fields are read: an `approvedBy`, `by`, `flags` or `scope` in the body is never looked at.
 */
export function askFromBody(kind: DecisionAsk['kind'], body: Body): DecisionAsk | undefined {
  switch (kind) {
    case 'confirm': {
      // A confirm from the console always proves what was shown: the digest is required, and an edit
      // carries the digest of its preview too (`editDigest`): what the card showed once previewed.
      const { digest, editDigest, passkey } = body;
      if (typeof digest !== 'string' || digest === '') return undefined;
      // A passkey's assertion is an object; the registry reads what is in it.
      if (passkey !== undefined && !isRecord(passkey)) return undefined;
      const signed = passkey === undefined ? {} : { passkey: passkey as unknown as PasskeyAssertion };
      if (!Object.hasOwn(body, 'payload')) return { kind, digest, ...signed };
      if (editDigest !== undefined && typeof editDigest !== 'string') return undefined;
      return { kind, digest, payload: { value: body.payload, previewed: editDigest ?? '' }, ...signed };
    }
    case 'retry': {
      const digest = optionalText(body, 'digest');
      return digest === null ? undefined : { kind, digest };
    }
    case 'reject':
    case 'cancel': {
      const reason = optionalText(body, 'reason');
      return reason === null ? undefined : { kind, reason };
    }
    case 'markDelivered': {
      const note = optionalText(body, 'note');
      return note === null ? undefined : { kind, note };
    }
  }
}

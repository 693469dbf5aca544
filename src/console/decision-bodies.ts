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
      // A confirm from the console always proves what was shown: the digest is required.
      const digest = body.digest;
      if (typeof digest !== 'string' || digest === '') return undefined;
      return Object.hasOwn(body, 'payload')
        ? { kind, digest, payload: { value: body.payload } }
        : { kind, digest };
    }
    case 'retry': {
      const digest = optionalText(body, 'digest');
      return digest === null ? undefined : { kind, digest };
    }
    case 'reject': {
      const reason = optionalText(body, 'reason');
      return reason === null ? undefined : { kind, reason };
    }
    case 'markDelivered': {
      const note = optionalText(body, 'note');
      return note === null ? undefined : { kind, note };
    }
  }
}

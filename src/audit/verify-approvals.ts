import { bindingOf, clientDataOf, splitChallenge } from '../passkeys/passkey-challenge.js';
import type { PasskeyVerifier } from '../passkeys/passkey-verifier.js';
import { bundleDigest } from '../util/bundle-digest.js';
import type { AuditEntry } from './audit-entry.js';

/** Why a passkey approval in the log does not prove itself. */
export type ApprovalProblemReason =
  /** The confirmation asked for a passkey, and its decision entry keeps no assertion (added by hand?). */
  | 'no-assertion'
  /** The assertion's signature does not verify with the key, or it is not an approval's (`webauthn.get`, this rpId, UV). */
  | 'signature'
  /** The assertion was made for another decision: another digest, confirmation, bundle or approver. */
  | 'other-payload'
  /** No key of that id was registered to that approver earlier in the log. */
  | 'unknown-key'
  /** The key was removed before the approval. */
  | 'removed-key'
  /** The key's signature counter did not move forward (a cloned authenticator, or an assertion used twice). */
  | 'counter';

/** One decision entry whose passkey approval does not hold. */
export interface ApprovalProblem {
  readonly seq: number;
  readonly confirmationId: string;
  readonly by?: string;
  readonly reason: ApprovalProblemReason;
}

/** What checking the log's passkey approvals found: how many were checked, and each that failed. */
export interface ApprovalsVerification {
  readonly checked: number;
  readonly problems: readonly ApprovalProblem[];
}

interface Key {
  readonly approver: string;
  readonly publicKey: string;
  removed: boolean;
  counter: number;
}

interface Asked {
  readonly bundle: string | undefined;
}

/**
 * Checks every passkey approval from the log alone, entry by entry in `seq` order: for each decision
 * (`approved`, `confirmed`) of a confirmation whose `created` entry says `passkey`, its assertion is
 * there, made by a key registered earlier to that approver and not removed since, over the challenge
 * that binds this entry's confirmation (or bundle), digest and approver, with a valid signature and a
 * counter that moved forward. Feed it pages with `add`, then read `result`.
 */
export class ApprovalsCheck {
  readonly #verifier: PasskeyVerifier;
  readonly #keys = new Map<string, Key>();
  readonly #asked = new Map<string, Asked>();
  readonly #bundles = new Map<string, string[]>();
  /** Assertions already checked (a bundle's one assertion is kept on each of its steps' entries). */
  readonly #seen = new Map<string, string>();
  readonly #problems: ApprovalProblem[] = [];
  /** Confirmations (id and digest) whose passkey approval verified: a retry of one needs no new one. */
  readonly #proved = new Set<string>();
  #checked = 0;

  constructor(verifier: PasskeyVerifier) {
    this.#verifier = verifier;
  }

  async add(entries: readonly AuditEntry[]): Promise<void> {
    for (const entry of entries) await this.#one(entry);
  }

  get result(): ApprovalsVerification {
    return { checked: this.#checked, problems: [...this.#problems] };
  }

  async #one(entry: AuditEntry): Promise<void> {
    const detail = entry.detail ?? {};
    if (entry.kind === 'passkey') {
      const id = text(detail.credentialId);
      if (id === undefined) return;
      if (entry.action === 'registered') {
        const approver = text(detail.approver);
        const publicKey = text(detail.publicKey);
        if (approver !== undefined && publicKey !== undefined && !this.#keys.has(id))
          this.#keys.set(id, { approver, publicKey, removed: false, counter: Number(detail.counter) || 0 });
      } else if (entry.action === 'removed') {
        const key = this.#keys.get(id);
        if (key !== undefined) key.removed = true;
      }
      return;
    }
    if (entry.kind !== 'confirmation' || entry.confirmationId === undefined) return;
    const id = entry.confirmationId;
    if (entry.action === 'created') {
      const bundle = text(detail.bundle);
      if (bundle !== undefined && typeof detail.step === 'number' && typeof detail.digest === 'string') {
        const steps = this.#bundles.get(bundle) ?? [];
        steps[detail.step] = detail.digest;
        this.#bundles.set(bundle, steps);
      }
      if (detail.passkey === true) this.#asked.set(id, { bundle });
      return;
    }
    if (entry.action !== 'approved' && entry.action !== 'confirmed') return;
    const asked = this.#asked.get(id);
    if (asked === undefined) return;
    const digest = typeof entry.detail?.digest === 'string' ? entry.detail.digest : '';
    const attempt = typeof entry.detail?.attempt === 'number' ? entry.detail.attempt : 0;
    // A retry's claim (a later attempt) re-delivers what was approved: fine once that approval verified.
    if (entry.action === 'confirmed' && attempt > 1 && entry.detail?.passkeySignature === undefined)
      if (this.#proved.has(`${id}:${digest}`)) return;
    this.#checked += 1;
    const reason = await this.#problemOf(entry, asked);
    if (reason === undefined) this.#proved.add(`${id}:${digest}`);
    if (reason !== undefined)
      this.#problems.push({
        seq: entry.seq,
        confirmationId: id,
        ...(entry.by === undefined ? {} : { by: entry.by }),
        reason,
      });
  }

  async #problemOf(entry: AuditEntry, asked: Asked): Promise<ApprovalProblemReason | undefined> {
    const detail = entry.detail ?? {};
    const credentialId = text(detail.passkeyCredentialId);
    const authenticatorData = text(detail.passkeyAuthenticatorData);
    const clientDataJSON = text(detail.passkeyClientDataJSON);
    const signature = text(detail.passkeySignature);
    const approver = entry.by;
    if (
      credentialId === undefined ||
      authenticatorData === undefined ||
      clientDataJSON === undefined ||
      signature === undefined ||
      approver === undefined
    )
      return 'no-assertion';
    const key = this.#keys.get(credentialId);
    if (key === undefined || key.approver !== approver) return 'unknown-key';
    if (key.removed) return 'removed-key';
    const digest = text(detail.digest) ?? '';
    const steps = asked.bundle === undefined ? undefined : this.#bundles.get(asked.bundle);
    const decision =
      asked.bundle === undefined
        ? { kind: 'confirmation' as const, id: entry.confirmationId ?? '', digest }
        : { kind: 'bundle' as const, id: asked.bundle, digest: bundleDigest(steps ?? []) };
    const binding = bindingOf({ ...decision, approver, rpId: this.#verifier.rpID });
    const client = clientDataOf(clientDataJSON);
    const parts = client === undefined ? undefined : splitChallenge(client.challenge);
    if (client === undefined || parts === undefined || parts.binding !== binding) return 'other-payload';
    const seenFor = this.#seen.get(`${credentialId}:${signature}`);
    // The same assertion on another step of the same bundle: checked once, counted once.
    if (seenFor !== undefined)
      return seenFor === binding && asked.bundle !== undefined ? undefined : 'counter';
    const userHandle = text(detail.passkeyUserHandle);
    const checked = await this.#verifier.verifyAssertion({
      assertion: {
        id: credentialId,
        rawId: credentialId,
        type: 'public-key',
        clientExtensionResults: {},
        response: {
          clientDataJSON,
          authenticatorData,
          signature,
          ...(userHandle === undefined ? {} : { userHandle }),
        },
      },
      expectedChallenge: client.challenge,
      credential: {
        id: credentialId,
        approver,
        publicKey: key.publicKey,
        counter: 0,
        transports: [],
        createdAt: '',
      },
    });
    if (!checked.ok) return 'signature';
    this.#seen.set(`${credentialId}:${signature}`, binding);
    const moved = checked.counter > key.counter || (checked.counter === 0 && key.counter === 0);
    if (!moved) return 'counter';
    key.counter = checked.counter;
    return undefined;
  }
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

import type { AuditDraft } from '../../audit/audit-entry.js';
import type { Confirmation } from '../../confirmation.js';
import {
  bindingOf,
  challengeOf,
  clientDataOf,
  newNonce,
  splitChallenge,
} from '../../passkeys/passkey-challenge.js';
import type {
  PasskeyChallengeRequest,
  PasskeyChallengeResult,
  PasskeyCredentialInfo,
  PasskeyFailure,
  PasskeyFailureCode,
  PasskeyListResult,
  PasskeyRegisterRequest,
  PasskeyRegisterResult,
  PasskeyRegistrationOptionsRequest,
  PasskeyRegistrationOptionsResult,
  PasskeyRemoveRequest,
  PasskeyRemoveResult,
} from '../../passkeys/passkey-types.js';
import type { PasskeyVerifier } from '../../passkeys/passkey-verifier.js';
import type { ConfirmationStore, PasskeyStore } from '../../stores/store.js';
import { hasCapability } from '../../stores/store-capabilities.js';
import { bundleDigest } from '../../util/bundle-digest.js';
import { describeThrown } from '../../util/describe-thrown.js';
import { isRecord } from '../../util/is-record.js';
import { toIso } from '../../util/iso-time.js';
import { readBundle } from '../bundles/bundle-view.js';
import { notConfigured, type RegistryPasskeys } from './registry-passkeys.js';

const MAX_NAME = 256;
const DIGEST = /^[0-9a-f]{64}$/;

/** `registry.passkeys`: the store's credentials and challenges, checked by the registry's verifier. */
export class Passkeys implements RegistryPasskeys {
  readonly #store: ConfirmationStore;
  readonly #verifier: PasskeyVerifier | undefined;
  readonly #now: () => number;

  constructor(settings: {
    readonly store: ConfirmationStore;
    readonly verifier: PasskeyVerifier | undefined;
    readonly now: () => number;
  }) {
    this.#store = settings.store;
    this.#verifier = settings.verifier;
    this.#now = settings.now;
  }

  /** The verifier and a store that keeps passkeys, or the failure that says which is missing. */
  #ready(): { verifier: PasskeyVerifier; store: ConfirmationStore & PasskeyStore } | PasskeyFailure {
    if (this.#verifier === undefined) return notConfigured();
    const store = this.#store;
    if (!hasCapability(store, 'passkeys'))
      return failed('INVALID_OPTION', 'this confirmation store keeps no passkeys (capability `passkeys`)');
    return { verifier: this.#verifier, store };
  }

  async registrationOptions(
    request: PasskeyRegistrationOptionsRequest,
  ): Promise<PasskeyRegistrationOptionsResult> {
    return guarded(async () => {
      const ready = this.#ready();
      if ('ok' in ready) return ready;
      const approver = nameOf(request, 'approver');
      if (approver === undefined) return failed('INVALID_OPTION', '`approver` must be a non-empty string');
      const displayName = optionalName(request, 'displayName') ?? approver;
      const nonce = newNonce();
      const challenge = challengeOf(nonce, '');
      await ready.store.savePasskeyChallenge({
        nonce,
        approver,
        binding: '',
        purpose: 'register',
        expiresAt: this.#now() + ready.verifier.challengeTtlMs,
      });
      const exclude = await ready.store.listPasskeys(approver);
      const options = await ready.verifier.registrationOptions({ approver, displayName, challenge, exclude });
      return { ok: true, options };
    });
  }

  async register(request: PasskeyRegisterRequest): Promise<PasskeyRegisterResult> {
    return guarded(async () => {
      const ready = this.#ready();
      if ('ok' in ready) return ready;
      const approver = nameOf(request, 'approver');
      if (approver === undefined) return failed('INVALID_OPTION', '`approver` must be a non-empty string');
      const label = optionalName(request, 'label');
      const response = (request as { response?: unknown }).response;
      if (!isRecord(response) || !isRecord(response.response))
        return failed('PASSKEY_INVALID', 'not a WebAuthn registration response');
      const client = clientDataOf(response.response.clientDataJSON);
      const parts = client === undefined ? undefined : splitChallenge(client.challenge);
      if (client === undefined || parts === undefined)
        return failed('PASSKEY_INVALID', 'its challenge is not one this registry made');
      const taken = await ready.store.takePasskeyChallenge(parts.nonce, this.#now());
      if (taken === undefined) return failed('PASSKEY_INVALID', 'its challenge was already used, or expired');
      if (taken.purpose !== 'register' || taken.approver !== approver)
        return failed('PASSKEY_INVALID', 'its challenge was made for another person');
      const checked = await ready.verifier.verifyRegistration({
        response: response as unknown as PasskeyRegisterRequest['response'],
        expectedChallenge: client.challenge,
      });
      if (!checked.ok) return failed('PASSKEY_INVALID', checked.error);
      const now = this.#now();
      const credential: PasskeyCredentialInfo = Object.freeze({
        id: checked.id,
        approver,
        publicKey: checked.publicKey,
        counter: checked.counter,
        transports: Object.freeze([...checked.transports]),
        createdAt: toIso(now),
        ...(label === undefined ? {} : { label }),
      });
      const saved = await ready.store.savePasskey(
        credential,
        passkeyDraft('registered', credential, approver, now),
      );
      if (!saved) return failed('PASSKEY_INVALID', 'this passkey is registered already');
      return { ok: true, credential };
    });
  }

  async list(request: { readonly approver: string }): Promise<PasskeyListResult> {
    return guarded(async () => {
      const ready = this.#ready();
      if ('ok' in ready) return ready;
      const approver = nameOf(request, 'approver');
      if (approver === undefined) return failed('INVALID_OPTION', '`approver` must be a non-empty string');
      return { ok: true, credentials: await ready.store.listPasskeys(approver) };
    });
  }

  async remove(request: PasskeyRemoveRequest): Promise<PasskeyRemoveResult> {
    return guarded(async () => {
      const ready = this.#ready();
      if ('ok' in ready) return ready;
      const approver = nameOf(request, 'approver');
      const id = nameOf(request, 'credentialId', 2_000);
      const by = nameOf(request, 'by');
      if (approver === undefined || id === undefined || by === undefined)
        return failed('INVALID_OPTION', '`approver`, `credentialId` and `by` must be non-empty strings');
      const credential = await ready.store.findPasskey(id);
      if (credential === undefined || credential.approver !== approver)
        return failed('NOT_FOUND', 'no such passkey of this approver');
      const removed = await ready.store.removePasskey(
        { id, approver },
        passkeyDraft('removed', credential, by, this.#now()),
      );
      return removed ? { ok: true } : failed('NOT_FOUND', 'no such passkey of this approver');
    });
  }

  async challenge(request: PasskeyChallengeRequest): Promise<PasskeyChallengeResult> {
    return guarded(async () => {
      const ready = this.#ready();
      if ('ok' in ready) return ready;
      const approver = nameOf(request, 'approver');
      const digest = (request as { digest?: unknown }).digest;
      const confirmationId = nameOf(request, 'confirmationId');
      const bundleId = nameOf(request, 'bundleId');
      if (approver === undefined) return failed('INVALID_OPTION', '`approver` must be a non-empty string');
      if (typeof digest !== 'string' || !DIGEST.test(digest.toLowerCase()))
        return failed('INVALID_OPTION', '`digest` must be the 64-character hex digest the person is shown');
      if ((confirmationId === undefined) === (bundleId === undefined))
        return failed('INVALID_OPTION', 'give `confirmationId` or `bundleId`');
      const now = this.#now();
      const shown = digest.toLowerCase();
      const decided =
        confirmationId !== undefined
          ? await this.#confirmationDecision(confirmationId, shown, now)
          : await this.#bundleDecision(bundleId as string, shown, now);
      if (!decided.ok) return decided;
      const allow = await ready.store.listPasskeys(approver);
      if (allow.length === 0)
        return failed('PASSKEY_INVALID', `${approver} has no passkey: register a passkey first`);
      const binding = bindingOf({ ...decided.decision, approver, rpId: ready.verifier.rpID });
      const nonce = newNonce();
      await ready.store.savePasskeyChallenge({
        nonce,
        approver,
        binding,
        purpose: 'approve',
        expiresAt: now + ready.verifier.challengeTtlMs,
      });
      const options = await ready.verifier.authenticationOptions({
        challenge: challengeOf(nonce, binding),
        allow,
      });
      return { ok: true, options };
    });
  }

  async #confirmationDecision(
    id: string,
    shown: string,
    now: number,
  ): Promise<
    { ok: true; decision: { kind: 'confirmation' | 'bundle'; id: string; digest: string } } | PasskeyFailure
  > {
    const record = await this.#store.get(id);
    if (record === undefined) return failed('CONFIRMATION_NOT_FOUND', 'no confirmation with this id');
    const open = openProblem(record, now);
    if (open !== undefined) return open;
    if (record.bundle !== undefined)
      return failed(
        'INVALID_OPTION',
        `this is a step of bundle ${record.bundle.id}: ask for the bundle's challenge`,
      );
    // Another digest is the person's edit as previewed (`checkEdit`): the challenge binds it, and the
    // confirm proves it against the edit it is given — a stale or made-up digest proves nothing there.
    return { ok: true, decision: { kind: 'confirmation', id, digest: shown } };
  }

  async #bundleDecision(
    id: string,
    shown: string,
    now: number,
  ): Promise<
    { ok: true; decision: { kind: 'confirmation' | 'bundle'; id: string; digest: string } } | PasskeyFailure
  > {
    const steps = await readBundle({ store: this.#store }, id);
    if (steps === undefined || steps.length === 0)
      return failed('CONFIRMATION_NOT_FOUND', 'no bundle with this id');
    const open = steps.find((step) => step.status === 'pending');
    if (open === undefined) return failed('ALREADY_DECIDED', 'this bundle was already decided');
    const expired = openProblem(open, now);
    if (expired !== undefined) return expired;
    const current = bundleDigest(steps.map((step) => step.digest));
    if (current !== shown || open.bundle?.digest !== current)
      return failed('PAYLOAD_CHANGED', 'the bundle changed since it was shown');
    return { ok: true, decision: { kind: 'bundle', id, digest: current } };
  }
}

function openProblem(record: Confirmation, now: number): PasskeyFailure | undefined {
  if (record.status === 'expired' || (record.status === 'pending' && Date.parse(record.expiresAt) <= now))
    return failed('EXPIRED', 'this confirmation expired');
  if (record.status !== 'pending') return failed('ALREADY_DECIDED', `this confirmation is ${record.status}`);
  return undefined;
}

/** The audit entry of a passkey registered or removed: the credential id and its public key. */
function passkeyDraft(
  action: 'registered' | 'removed',
  credential: PasskeyCredentialInfo,
  by: string,
  at: number,
): AuditDraft {
  return {
    at,
    kind: 'passkey',
    tool: '',
    by,
    action,
    detail: {
      approver: credential.approver,
      credentialId: credential.id,
      publicKey: credential.publicKey,
      counter: credential.counter,
    },
  };
}

function failed(code: PasskeyFailureCode, error: string): PasskeyFailure {
  return { ok: false, code, error };
}

/** A string option read once; `undefined` when absent, not a string, empty or too long. */
function nameOf(request: unknown, key: string, max = MAX_NAME): string | undefined {
  const value = isRecord(request) ? request[key] : undefined;
  return typeof value === 'string' && value !== '' && value.length <= max ? value : undefined;
}

function optionalName(request: unknown, key: string): string | undefined {
  return nameOf(request, key, 100);
}

/** Never rejects: a store or verifier that throws answers `STORE_FAILED` (an audit entry refused: `AUDIT_FAILED`). */
async function guarded<Result>(run: () => Promise<Result>): Promise<Result | PasskeyFailure> {
  try {
    return await run();
  } catch (error) {
    const name = error instanceof Error ? error.name : '';
    return failed(
      name === 'AuditWriteError' ? 'AUDIT_FAILED' : 'STORE_FAILED',
      describeThrown(error).slice(0, 300),
    );
  }
}

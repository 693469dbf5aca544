import type { Confirmation } from '../confirmation.js';
import type {
  PasskeyCredentialInfo,
  PasskeyFailure,
  PasskeyRegistrationResponse,
} from '../passkeys/passkey-types.js';
import type { ToolFailure } from '../result.js';
import { isRecord } from '../util/is-record.js';
import { isAllowed } from './access.js';
import type { PersonRequest, RequestBody } from './console-request.js';
import { jsonResponse, refusal } from './json-response.js';
import { failureBody } from './registry-failure.js';
import type {
  PasskeyAdded,
  PasskeyChallenge,
  PasskeyCreation,
  PasskeyList,
  PasskeyListed,
  PasskeyRemoved,
} from './wire.js';

// The person's passkeys and the challenge of one decision, through the registry's `passkeys`. The
// approver is always the signed-in person: a name in the body is never read.

/** `GET api/passkeys`: the signed-in person's own passkeys (never anyone else's, never a public key). */
export async function passkeyListResponse(ctx: PersonRequest): Promise<Response> {
  const listed = await ctx.settings.registry.passkeys.list({ approver: ctx.person.id });
  if (!listed.ok) return failed(listed, ctx);
  return jsonResponse(200, {
    ok: true,
    credentials: listed.credentials.map(listedPasskey),
  } satisfies PasskeyList);
}

/** `POST api/passkeys/options`: what the browser's `navigator.credentials.create` is asked with. */
export async function passkeyOptionsResponse(ctx: PersonRequest): Promise<Response> {
  const { id, name } = ctx.person;
  const made = await ctx.settings.registry.passkeys.registrationOptions({
    approver: id,
    displayName: name ?? id,
  });
  if (!made.ok) return failed(made, ctx);
  return jsonResponse(200, { ok: true, options: made.options } satisfies PasskeyCreation);
}

/** `POST api/passkeys { response, label? }`: the browser's answer, registered to the person. */
export async function passkeyRegisterResponse(
  ctx: PersonRequest,
  _id: string,
  body: RequestBody,
): Promise<Response> {
  const { response, label } = body;
  if (!isRecord(response) || (label !== undefined && typeof label !== 'string'))
    return refusal(400, 'BAD_REQUEST', ctx.locale);
  const added = await ctx.settings.registry.passkeys.register({
    approver: ctx.person.id,
    // Read by the registry (and the WebAuthn library) once, as hostile input.
    response: response as unknown as PasskeyRegistrationResponse,
    ...(label === undefined || label.trim() === '' ? {} : { label: label.trim() }),
  });
  if (!added.ok) return failed(added, ctx);
  return jsonResponse(200, { ok: true, credential: listedPasskey(added.credential) } satisfies PasskeyAdded);
}

/** `DELETE api/passkeys/<credentialId>`: one of the person's own passkeys removed (another's: 404). */
export async function passkeyRemoveResponse(ctx: PersonRequest, credentialId: string): Promise<Response> {
  const removed = await ctx.settings.registry.passkeys.remove({
    approver: ctx.person.id,
    credentialId,
    by: ctx.person.id,
  });
  if (!removed.ok) return failed(removed, ctx);
  return jsonResponse(200, { ok: true } satisfies PasskeyRemoved);
}

/**
 * `POST api/confirmations/<id>/passkey-challenge { digest }` and `api/bundles/<id>/passkey-challenge`:
 * the options of `navigator.credentials.get` for the person's approval of exactly that digest. Asked
 * only of a person the app's `authorize` lets confirm it: nobody else learns whether it exists.
 */
export function passkeyChallengeResponse(kind: 'confirmation' | 'bundle') {
  return async (ctx: PersonRequest, id: string, body: RequestBody): Promise<Response> => {
    const { digest } = body;
    if (typeof digest !== 'string' || digest === '') return refusal(400, 'BAD_REQUEST', ctx.locale);
    const records = await recordsOf(ctx, kind, id);
    if (!records.ok) return failed(records, ctx);
    for (const record of records.confirmations)
      if (!(await isAllowed(ctx.settings.authorize, ctx.person, 'confirm', record)))
        return refusal(403, 'FORBIDDEN', ctx.locale);
    const approver = ctx.person.id;
    const made = await ctx.settings.registry.passkeys.challenge(
      kind === 'bundle' ? { bundleId: id, approver, digest } : { confirmationId: id, approver, digest },
    );
    if (!made.ok) return failed(made, ctx);
    return jsonResponse(200, { ok: true, options: made.options } satisfies PasskeyChallenge);
  };
}

/** The confirmation, or a bundle's pending steps (its every step once none is pending). */
async function recordsOf(
  ctx: PersonRequest,
  kind: 'confirmation' | 'bundle',
  id: string,
): Promise<{ readonly ok: true; readonly confirmations: readonly Confirmation[] } | ToolFailure> {
  const { registry } = ctx.settings;
  if (kind === 'confirmation') {
    const found = await registry.confirmations.get(id, { locale: ctx.locale });
    return found.ok ? { ok: true, confirmations: [found.confirmation] } : found;
  }
  const found = await registry.confirmations.bundle(id, { locale: ctx.locale });
  if (!found.ok) return found;
  const pending = found.bundle.steps.filter((step) => step.status === 'pending');
  return { ok: true, confirmations: pending.length === 0 ? found.bundle.steps : pending };
}

/** A credential as the console lists it: its id, when, its name and transports. */
function listedPasskey(credential: PasskeyCredentialInfo): PasskeyListed {
  return {
    id: credential.id,
    createdAt: credential.createdAt,
    ...(credential.label === undefined ? {} : { label: credential.label }),
    transports: [...credential.transports],
  };
}

function failed(failure: ToolFailure | PasskeyFailure, ctx: PersonRequest): Response {
  const { status, ...body } = failureBody(failure as ToolFailure, ctx.locale);
  return jsonResponse(status, { ok: false, ...body });
}

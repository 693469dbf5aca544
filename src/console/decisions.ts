import type {
  AuthorizeDecision,
  ConfirmationFailure,
  ConfirmationResult,
  ConfirmResult,
} from '../confirm/types.js';
import type { Confirmation } from '../confirmation.js';
import type { PasskeyAssertion } from '../passkeys/passkey-types.js';
import { isAllowed } from './access.js';
import { consoleMessage, consoleWords } from './console-messages.js';
import type { PersonRequest } from './console-request.js';
import { missingApproverFlags, quorumOf } from './quorum.js';
import { failureBody } from './registry-failure.js';
import type { ConsoleAction, ConsolePerson } from './types.js';
import type { Decision } from './wire.js';

// bulk-decisions.ts still imports the type from here.

/** A decision and the HTTP status it is answered with on its own. */
export interface DecisionOutcome {
  readonly status: number;
  readonly decision: Decision;
}

/** What a person asked to decide about one confirmation, read from the request body. */
export type DecisionAsk =
  | {
      readonly kind: 'confirm';
      readonly digest: string;
      /** A person's edit, and the digest its preview showed them (`''`: never previewed). */
      readonly payload?: { readonly value: unknown; readonly previewed: string };
      /** The person's passkey assertion, for a confirmation that `requires.passkey`. */
      readonly passkey?: PasskeyAssertion;
    }
  | { readonly kind: 'retry'; readonly digest: string | undefined }
  | { readonly kind: 'reject'; readonly reason: string | undefined }
  | { readonly kind: 'markDelivered'; readonly note: string | undefined }
  | { readonly kind: 'cancel'; readonly reason: string | undefined };

/**
 * One decision, through the registry's one check list: `authorize` is asked there, once (about the
 * action, and `edit` too when the person changed the payload), after the record is read and before
 * anything is claimed — always with the person as approver, their flags and scope, never a name from
 * the request. Through a one-time link (`link`), the link's approver decides, the link is spent by
 * the claim, and a refusal shows nothing of the confirmation.
 */
export async function decide(
  ctx: PersonRequest,
  id: string,
  ask: DecisionAsk,
  link?: string,
): Promise<DecisionOutcome> {
  const unseen =
    ask.kind === 'confirm' && ask.payload !== undefined ? await unseenEdit(ctx, id, ask.payload) : undefined;
  if (unseen !== undefined) return unseen;
  const result = await askRegistry(ctx, id, ask, link);
  if (!result.ok) return await failed(ctx, result, link !== undefined);
  const confirmation = await ctx.cards.card(result.confirmation);
  const all = consoleWords(ctx.locale);
  const words = confirmation.sideEffect === 'write' ? all.write : all;
  return {
    status: 200,
    decision: {
      ok: true,
      status: confirmation.status,
      confirmation,
      message: ask.kind === 'markDelivered' ? words.markedDelivered : words.done[confirmation.status],
    },
  };
}

/**
 * An edit confirms only what its preview showed: the registry's own `checkEdit` says which digest the
 * edited payload has, and a confirm whose preview showed another (or none) is refused before anything
 * is decided. The rest — may they edit, is it valid, is it still pending — is the check list's, in
 * the confirm that follows.
 */
async function unseenEdit(
  ctx: PersonRequest,
  id: string,
  edit: { readonly value: unknown; readonly previewed: string },
): Promise<DecisionOutcome | undefined> {
  const { registry, authorize } = ctx.settings;
  const found = await registry.confirmations.get(id, { locale: ctx.locale });
  if (!found.ok) return await failed(ctx, found, false);
  // Nothing about the edit is told to someone who may not make it (as the check list would refuse).
  for (const action of ['confirm', 'edit'] as const)
    if (!(await isAllowed(authorize, ctx.person, action, found.confirmation)))
      return await failed(ctx, { ok: false, code: 'FORBIDDEN', error: '' }, false);
  const checked = await registry.confirmations.checkEdit(id, edit.value, { locale: ctx.locale });
  // An edit that cannot be checked now is not sent now: the registry's words say why.
  if (!checked.ok) return await failed(ctx, checked, false);
  if (checked.digest === edit.previewed) return undefined;
  return {
    status: 409,
    decision: {
      ok: false,
      code: 'EDIT_NOT_PREVIEWED',
      error: consoleMessage('EDIT_NOT_PREVIEWED', ctx.locale),
    },
  };
}

/**
 * The app's `authorize`, as the registry's check list asks it: the action, and `edit` for an edit.
 * Without one, a cancel is asked with none: the registry then lets only a person who approved the
 * send take it back, never anyone signed in.
 */
function authorizeFor(
  ctx: PersonRequest,
  ask: DecisionAsk,
  link: string | undefined,
): AuthorizeDecision | undefined {
  if (ask.kind === 'cancel' && ctx.settings.authorize === undefined) return undefined;
  const actions: ConsoleAction[] =
    ask.kind === 'confirm' && ask.payload !== undefined ? ['confirm', 'edit'] : [ask.kind];
  return async (confirmation, approver) => {
    // Through a link, the link's approver is the person; otherwise the one signed in.
    const person: ConsolePerson = link === undefined ? ctx.person : approver;
    for (const action of actions)
      if (!(await isAllowed(ctx.settings.authorize, person, action, confirmation))) return false;
    return true;
  };
}

/** The registry call for `ask`, made as the signed-in person (or through the link), in their language. */
function askRegistry(
  ctx: PersonRequest,
  id: string,
  ask: DecisionAsk,
  link: string | undefined,
): Promise<ConfirmResult | ConfirmationResult> {
  const { registry } = ctx.settings;
  const { person, locale } = ctx;
  const authorize = authorizeFor(ctx, ask, link);
  if (link !== undefined) {
    if (ask.kind === 'confirm') return registry.confirm(id, { link, digest: ask.digest, authorize, locale });
    if (ask.kind === 'reject') return registry.reject(id, { link, reason: ask.reason, authorize, locale });
    // A link confirms or rejects, nothing else (its routes say so too).
    return Promise.resolve({ ok: false, code: 'FORBIDDEN', error: '' });
  }
  const approver = { approvedBy: person.id, flags: person.flags, scope: person.scope, locale, authorize };
  switch (ask.kind) {
    case 'confirm':
      return registry.confirm(id, {
        ...approver,
        digest: ask.digest,
        ...(ask.payload === undefined ? {} : { payload: ask.payload.value }),
        ...(ask.passkey === undefined ? {} : { passkey: ask.passkey }),
      });
    case 'retry':
      return registry.retry(id, { ...approver, digest: ask.digest });
    case 'reject':
      return registry.reject(id, { rejectedBy: person.id, reason: ask.reason, authorize, locale });
    case 'markDelivered':
      return registry.markDelivered(id, { by: person.id, note: ask.note, authorize, locale });
    case 'cancel':
      return registry.cancel(id, { by: person.id, reason: ask.reason, authorize, locale });
  }
}

/**
 * Not refusals but what the person's own decision did: a delivery that failed, an approval recorded
 * while the rules ask for more people, an approved send held for its undo window. Through a link, the
 * link was spent on it: the card is theirs.
 */
const OUTCOMES: ReadonlySet<string> = new Set(['DELIVERY_FAILED', 'AWAITING_APPROVALS', 'SCHEDULED']);

/**
 * A registry failure as a decision: its code and words, the card, who decided it first, and for an
 * approval of several how many there are now. Neither a refusal of `authorize` nor any refusal through
 * a link shows the confirmation (an outcome through a link does: see `OUTCOMES`).
 */
async function failed(
  ctx: PersonRequest,
  failure: ConfirmationFailure,
  throughLink: boolean,
): Promise<DecisionOutcome> {
  const { status, ...body } = failureBody(failure, ctx.locale);
  const reason = (failure as { readonly reason?: string }).reason;
  if ((throughLink && !OUTCOMES.has(failure.code)) || failure.code === 'FORBIDDEN') {
    const words = failure.code === 'FORBIDDEN' ? consoleMessage('FORBIDDEN', ctx.locale) : body.error;
    // An unknown link is told apart from nothing: 404, like a link for another confirmation.
    const linkStatus = reason === 'unknown' ? 404 : status;
    return {
      status: linkStatus,
      decision: { ok: false, code: body.code, error: words, ...(reason === undefined ? {} : { reason }) },
    };
  }
  const { confirmation } = failure;
  const by =
    body.code === 'ALREADY_DECIDED' && confirmation !== undefined ? decidedBy(confirmation) : undefined;
  const quorum = body.code === 'AWAITING_APPROVALS' && confirmation ? quorumOf(confirmation) : undefined;
  const deliverAt = body.code === 'SCHEDULED' ? confirmation?.deliverAt : undefined;
  const missing =
    body.code === 'FLAG_NOT_GRANTED' && confirmation !== undefined && !throughLink
      ? missingApproverFlags(confirmation, ctx.person.flags)
      : [];
  return {
    status,
    decision: {
      ok: false,
      ...body,
      ...(confirmation === undefined ? {} : { confirmation: await ctx.cards.card(confirmation) }),
      ...(by === undefined ? {} : { decidedBy: by }),
      ...(quorum === undefined
        ? {}
        : { approval: { count: quorum.approvedBy.length, needed: quorum.needed } }),
      ...(deliverAt === undefined ? {} : { deliverAt }),
      ...(missing.length === 0 ? {} : { missingFlags: missing }),
    },
  };
}

/**
 * Who made the decision that closed it: the last history entry past `pending` that names someone
 * (the approver who claimed it, the person who rejected it or marked it delivered).
 */
export function decidedBy(confirmation: Confirmation): string | undefined {
  for (let i = confirmation.history.length - 1; i >= 0; i--) {
    const entry = confirmation.history[i];
    if (entry !== undefined && entry.status !== 'pending' && entry.by !== undefined) return entry.by;
  }
  return undefined;
}

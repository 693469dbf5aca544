import type {
  Confirmation,
  ConfirmationFailure,
  ConfirmationResult,
  ConfirmResult,
} from '../confirm/types.js';
import type { ValidationIssue } from '../result.js';
import { isAllowed } from './access.js';
import type { Card } from './cards.js';
import { consoleMessage, consoleWords } from './console-messages.js';
import type { PersonRequest } from './console-request.js';
import { failureBody } from './registry-failure.js';
import type { ConsoleAction } from './types.js';

/** What a decision answers: it went through, or why not (in the person's language). */
export type Decision =
  | {
      readonly ok: true;
      readonly status: Confirmation['status'];
      readonly confirmation: Card;
      readonly message: string;
    }
  | {
      readonly ok: false;
      readonly code: string;
      readonly error: string;
      readonly confirmation?: Card;
      /** For `ALREADY_DECIDED`: who decided it first. */
      readonly decidedBy?: string;
      readonly issues?: readonly ValidationIssue[];
    };

/** A decision and the HTTP status it is answered with on its own. */
export interface DecisionOutcome {
  readonly status: number;
  readonly decision: Decision;
}

/** What a person asked to decide about one confirmation, read from the request body. */
export type DecisionAsk =
  | { readonly kind: 'confirm'; readonly digest: string; readonly payload?: { readonly value: unknown } }
  | { readonly kind: 'retry'; readonly digest: string | undefined }
  | { readonly kind: 'reject'; readonly reason: string | undefined }
  | { readonly kind: 'markDelivered'; readonly note: string | undefined };

/**
 * One decision by the signed-in person: the confirmation is looked up, `authorize` asked about the
 * action (and `edit` too, when the person changed the payload), then the registry decides — always
 * with the person as approver, their flags and scope, never a name from the request.
 */
export async function decide(ctx: PersonRequest, id: string, ask: DecisionAsk): Promise<DecisionOutcome> {
  const found = await ctx.settings.registry.confirmations.get(id, { locale: ctx.locale });
  if (!found.ok) return failed(ctx, found);
  if (!(await isAuthorized(ctx, ask, found.confirmation)))
    return {
      status: 403,
      decision: { ok: false, code: 'FORBIDDEN', error: consoleMessage('FORBIDDEN', ctx.locale) },
    };
  const result = await askRegistry(ctx, id, ask);
  if (!result.ok) return failed(ctx, result);
  const confirmation = ctx.cards.card(result.confirmation);
  const words = consoleWords(ctx.locale);
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

/** `authorize` allows the action, and `edit` too when the person changed the payload. */
async function isAuthorized(
  ctx: PersonRequest,
  ask: DecisionAsk,
  confirmation: Confirmation,
): Promise<boolean> {
  const actions: ConsoleAction[] =
    ask.kind === 'confirm' && ask.payload !== undefined ? ['confirm', 'edit'] : [ask.kind];
  for (const action of actions)
    if (!(await isAllowed(ctx.settings.authorize, ctx.person, action, confirmation))) return false;
  return true;
}

/** The registry call for `ask`, made as the signed-in person, in their language. */
function askRegistry(
  ctx: PersonRequest,
  id: string,
  ask: DecisionAsk,
): Promise<ConfirmResult | ConfirmationResult> {
  const { registry } = ctx.settings;
  const { person, locale } = ctx;
  const approver = { approvedBy: person.id, flags: person.flags, scope: person.scope, locale };
  switch (ask.kind) {
    case 'confirm':
      return registry.confirm(id, {
        ...approver,
        digest: ask.digest,
        ...(ask.payload === undefined ? {} : { payload: ask.payload.value }),
      });
    case 'retry':
      return registry.retry(id, { ...approver, digest: ask.digest });
    case 'reject':
      return registry.reject(id, { rejectedBy: person.id, reason: ask.reason, locale });
    case 'markDelivered':
      return registry.markDelivered(id, { by: person.id, note: ask.note, locale });
  }
}

/** A registry failure as a decision: its code and words, the card, and who decided it first. */
function failed(ctx: PersonRequest, failure: ConfirmationFailure): DecisionOutcome {
  const { status, ...body } = failureBody(failure, ctx.locale);
  const { confirmation } = failure;
  const by =
    body.code === 'ALREADY_DECIDED' && confirmation !== undefined ? decidedBy(confirmation) : undefined;
  return {
    status,
    decision: {
      ok: false,
      ...body,
      ...(confirmation === undefined ? {} : { confirmation: ctx.cards.card(confirmation) }),
      ...(by === undefined ? {} : { decidedBy: by }),
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

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
  const { registry } = ctx.settings;
  const { person, locale } = ctx;
  const found = await registry.confirmations.get(id, { locale });
  if (!found.ok) return failed(ctx, found);
  const actions: ConsoleAction[] =
    ask.kind === 'confirm' && ask.payload !== undefined ? ['confirm', 'edit'] : [ask.kind];
  for (const action of actions) {
    if (!(await isAllowed(ctx.settings.authorize, person, action, found.confirmation)))
      return {
        status: 403,
        decision: { ok: false, code: 'FORBIDDEN', error: consoleMessage('FORBIDDEN', locale) },
      };
  }
  const approver = {
    approvedBy: person.id,
    flags: person.flags,
    scope: person.scope,
    locale,
  };
  let result: ConfirmResult | ConfirmationResult;
  switch (ask.kind) {
    case 'confirm':
      result = await registry.confirm(id, {
        ...approver,
        digest: ask.digest,
        ...(ask.payload === undefined ? {} : { payload: ask.payload.value }),
      });
      break;
    case 'retry':
      result = await registry.retry(id, { ...approver, digest: ask.digest });
      break;
    case 'reject':
      result = await registry.reject(id, { rejectedBy: person.id, reason: ask.reason, locale });
      break;
    case 'markDelivered':
      result = await registry.markDelivered(id, { by: person.id, note: ask.note, locale });
      break;
  }
  if (!result.ok) return failed(ctx, result);
  const confirmation = ctx.cards.card(result.confirmation);
  return {
    status: 200,
    decision: {
      ok: true,
      status: confirmation.status,
      confirmation,
      message: consoleWords(locale).done[confirmation.status],
    },
  };
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

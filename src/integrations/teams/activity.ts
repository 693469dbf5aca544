import { isRecord } from '../../util/is-record.js';
import { type ActionData, readActionData, readVerb, type Verb } from './action-data.js';
import { REASON_INPUT } from './approval-card.js';

/** What every activity must say before its token is checked: where it came from. */
export interface ActivitySource {
  readonly channelId: string;
  readonly serviceUrl: string;
  /** The activity's id: the same activity sent again is a replay. */
  readonly id: string | undefined;
}

/** One of our card's `Action.Execute` buttons, pressed (an `adaptiveCard/action` invoke). */
export interface CardAction {
  readonly kind: 'action';
  readonly verb: Verb;
  readonly data: ActionData;
  /** The reason typed beside Reject, when any. */
  readonly reason: string | undefined;
  /** The Teams user's Microsoft Entra object id (`from.aadObjectId`). */
  readonly user: string | undefined;
  /** The card's conversation and activity, to update it. */
  readonly conversationId: string | undefined;
  readonly replyToId: string | undefined;
}

/** An activity read once: its source, and our action or something else (answered, never acted on). */
export type ReadActivity =
  | { readonly source: ActivitySource; readonly action: CardAction }
  | { readonly source: ActivitySource; readonly action: undefined; readonly isInvoke: boolean };

/** The activity in `body`, or `undefined` when it is not one. Read once, here. */
export function readActivity(body: string): ReadActivity | undefined {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return undefined;
  }
  if (!isRecord(value)) return undefined;
  const { type, name, id, channelId, serviceUrl, from, conversation, replyToId } = value;
  if (typeof channelId !== 'string' || typeof serviceUrl !== 'string' || typeof type !== 'string')
    return undefined;
  const source = { channelId, serviceUrl, id: shortText(id, 512) };
  const isInvoke = type === 'invoke';
  if (!isInvoke || name !== 'adaptiveCard/action' || !isRecord(value.value))
    return { source, action: undefined, isInvoke };
  const action = value.value.action;
  if (!isRecord(action) || action.type !== 'Action.Execute') return { source, action: undefined, isInvoke };
  const verb = readVerb(action.verb);
  const data = readActionData(action.data);
  if (verb === undefined || data === undefined) return { source, action: undefined, isInvoke };
  const reason = isRecord(action.data) ? shortText(action.data[REASON_INPUT], 500) : undefined;
  return {
    source,
    action: {
      kind: 'action',
      verb,
      data,
      reason: reason?.trim() === '' ? undefined : reason,
      user: isRecord(from) ? shortText(from.aadObjectId, 128) : undefined,
      conversationId: isRecord(conversation) ? shortText(conversation.id, 1024) : undefined,
      replyToId: shortText(replyToId, 512),
    },
  };
}

function shortText(value: unknown, max: number): string | undefined {
  return typeof value === 'string' && value !== '' && value.length <= max ? value : undefined;
}

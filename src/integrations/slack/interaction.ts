import { isRecord } from '../../util/is-record.js';
import {
  ACTIONS,
  type ButtonAction,
  type ButtonValue,
  FORMS,
  type FormKind,
  readButtonValue,
} from './action-value.js';
import { type ModalMeta, readModalMeta } from './modal-views.js';

/** One of our buttons clicked. */
export interface ButtonClick {
  readonly kind: 'button';
  readonly action: ButtonAction;
  readonly value: ButtonValue;
  /** The Slack user who clicked. */
  readonly user: string;
  /** The message the button is on. */
  readonly channel?: string;
  readonly messageTs?: string;
  /** What `views.open` needs, valid for three seconds. */
  readonly triggerId?: string;
}

/** One of our modals submitted. */
export interface FormSubmit {
  readonly kind: 'submit';
  readonly form: FormKind;
  readonly user: string;
  readonly meta: ModalMeta;
  /** Each input block's value by `block_id` (`undefined` when left empty). */
  readonly values: Readonly<Record<string, string | undefined>>;
}

/** What Slack sent, read once at the edge; `other` is anything not ours (answered with 200). */
export type Interaction = ButtonClick | FormSubmit | { readonly kind: 'other' };

const SLACK_ID = /^[A-Za-z0-9_-]{1,64}$/;
const TS = /^\d{1,12}\.\d{1,8}$/;

/**
 * The interaction in a verified request body (`payload=<JSON>`, form-encoded), or `undefined` when
 * the body cannot be read as one.
 */
export function readInteraction(body: string): Interaction | undefined {
  let payload: unknown;
  try {
    payload = JSON.parse(new URLSearchParams(body).get('payload') ?? '');
  } catch {
    return undefined;
  }
  if (!isRecord(payload)) return undefined;
  const user = isRecord(payload.user) ? payload.user.id : undefined;
  if (typeof user !== 'string' || !SLACK_ID.test(user)) return { kind: 'other' };
  if (payload.type === 'block_actions') return readClick(payload, user);
  if (payload.type === 'view_submission') return readSubmit(payload, user);
  return { kind: 'other' };
}

function readClick(payload: Record<string, unknown>, user: string): Interaction {
  const actions = Array.isArray(payload.actions) ? payload.actions : [];
  for (const action of actions) {
    if (!isRecord(action)) continue;
    const which = (Object.keys(ACTIONS) as ButtonAction[]).find((key) => ACTIONS[key] === action.action_id);
    const value = readButtonValue(action.value);
    if (which === undefined || value === undefined) continue;
    const channel = isRecord(payload.channel) ? payload.channel.id : undefined;
    const ts = isRecord(payload.message) ? payload.message.ts : undefined;
    const trigger = payload.trigger_id;
    return {
      kind: 'button',
      action: which,
      value,
      user,
      ...(typeof channel === 'string' && SLACK_ID.test(channel) ? { channel } : {}),
      ...(typeof ts === 'string' && TS.test(ts) ? { messageTs: ts } : {}),
      ...(typeof trigger === 'string' && trigger.length <= 256 ? { triggerId: trigger } : {}),
    };
  }
  return { kind: 'other' };
}

function readSubmit(payload: Record<string, unknown>, user: string): Interaction {
  const view = payload.view;
  if (!isRecord(view)) return { kind: 'other' };
  const form = (Object.keys(FORMS) as FormKind[]).find((key) => FORMS[key] === view.callback_id);
  const meta = readModalMeta(view.private_metadata);
  if (form === undefined || meta === undefined) return { kind: 'other' };
  const values: Record<string, string | undefined> = Object.create(null);
  const state = isRecord(view.state) && isRecord(view.state.values) ? view.state.values : {};
  for (const [block, inputs] of Object.entries(state)) {
    if (!isRecord(inputs)) continue;
    const first = Object.values(inputs)[0];
    const value = isRecord(first) ? first.value : undefined;
    values[block] = typeof value === 'string' ? value : undefined;
  }
  return { kind: 'submit', form, user, meta, values };
}

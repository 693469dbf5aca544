import { isRecord } from '../../util/is-record.js';
import { FORMS } from './action-value.js';
import type { Block } from './message-blocks.js';
import { plain } from './message-blocks.js';
import { cut, escapedWithin } from './mrkdwn.js';
import type { SlackWords } from './slack-words.js';

/**
 * What a modal carries from the click to its submission (`private_metadata`, at most 3,000
 * characters): the confirmation, the digest shown, the message to update, and the fields edited.
 */
export interface ModalMeta {
  readonly id: string;
  readonly digest: string;
  readonly channel?: string;
  readonly ts?: string;
  readonly fields?: readonly string[];
}

/** The reason's input block in the reject modal. */
export const REASON_BLOCK = 'reason';
/** The input block of the `index`th editable field in the edit modal. */
export const fieldBlock = (index: number): string => `field_${index}`;

const INPUT_ACTION = 'value';
const MAX_INPUT = 3000;
const MAX_METADATA = 3000;

/** The modal a Reject click opens: the reason, required, recorded with the rejection. */
export function rejectModal(meta: ModalMeta, title: string, words: SlackWords): Block {
  return {
    type: 'modal',
    callback_id: FORMS.reject,
    title: plain(words.rejectTitle, 24),
    submit: plain(words.reject, 24),
    close: plain(words.cancel, 24),
    private_metadata: JSON.stringify(meta),
    blocks: [
      { type: 'section', text: { type: 'mrkdwn', text: `*${escapedWithin(title, 2900)}*`, verbatim: true } },
      {
        type: 'input',
        block_id: REASON_BLOCK,
        label: plain(words.rejectReason, 2000),
        element: { type: 'plain_text_input', action_id: INPUT_ACTION, multiline: true, max_length: 2000 },
      },
    ],
  };
}

/**
 * The modal an Edit click opens: one input per editable field, holding its value now (text for a
 * string, JSON for anything else). `undefined` when a value or the fields do not fit Slack's limits —
 * such an edit belongs in the console.
 */
export function editModal(asked: {
  readonly meta: ModalMeta;
  readonly payload: Record<string, unknown>;
  readonly editable: readonly string[];
  readonly labels: Record<string, string>;
  readonly words: SlackWords;
}): Block | undefined {
  const { payload, editable, labels, words } = asked;
  const meta: ModalMeta = { ...asked.meta, fields: editable };
  const privateMetadata = JSON.stringify(meta);
  if (privateMetadata.length > MAX_METADATA || editable.length > 90) return undefined;
  const inputs: Block[] = [];
  for (const [index, field] of editable.entries()) {
    const value = payload[field];
    const text = value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value);
    if (text.length > MAX_INPUT) return undefined;
    inputs.push({
      type: 'input',
      block_id: fieldBlock(index),
      optional: true,
      label: plain(labels[field] ?? field, 2000),
      element: {
        type: 'plain_text_input',
        action_id: INPUT_ACTION,
        multiline: text.length > 80 || text.includes('\n'),
        max_length: MAX_INPUT,
        ...(text === '' ? {} : { initial_value: text }),
      },
    });
  }
  return {
    type: 'modal',
    callback_id: FORMS.edit,
    title: plain(words.editTitle, 24),
    submit: plain(words.editSubmit, 24),
    close: plain(words.cancel, 24),
    private_metadata: privateMetadata,
    blocks: [
      { type: 'context', elements: [{ type: 'plain_text', text: cut(words.editIntro, 2000) }] },
      ...inputs,
    ],
  };
}

/**
 * The payload as edited: each editable field read back in the type it had (a string stays text; a
 * number, boolean or JSON value is parsed, and left as typed when it does not parse, for the payload
 * schema to refuse by name).
 */
export function editedPayload(
  original: Record<string, unknown>,
  fields: readonly string[],
  values: Readonly<Record<string, string | undefined>>,
): Record<string, unknown> {
  const edited: Record<string, unknown> = { ...original };
  for (const [index, field] of fields.entries()) {
    const text = values[fieldBlock(index)] ?? '';
    const was = original[field];
    if (typeof was === 'string' || (was === undefined && text === '')) {
      if (was !== undefined || text !== '') edited[field] = text;
      continue;
    }
    edited[field] = parsed(text, was);
  }
  return edited;
}

function parsed(text: string, was: unknown): unknown {
  if (typeof was === 'number') {
    const number = Number(text.trim());
    return text.trim() !== '' && Number.isFinite(number) ? number : text;
  }
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** A modal's `private_metadata` read back, or `undefined` when it is not ours. */
export function readModalMeta(text: unknown): ModalMeta | undefined {
  if (typeof text !== 'string' || text.length > MAX_METADATA) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isRecord(value)) return undefined;
  const { id, digest, channel, ts, fields } = value;
  if (typeof id !== 'string' || typeof digest !== 'string') return undefined;
  const names =
    Array.isArray(fields) && fields.every((f) => typeof f === 'string') ? (fields as string[]) : undefined;
  return {
    id,
    digest,
    ...(typeof channel === 'string' ? { channel } : {}),
    ...(typeof ts === 'string' ? { ts } : {}),
    ...(names === undefined ? {} : { fields: names }),
  };
}

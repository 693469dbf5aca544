// The names this channel puts in Slack and reads back: action and callback ids, the message metadata,
// and what a button carries (the confirmation and the digest of the payload it was shown with).

/** The `event_type` of the metadata on every approval message: how any instance finds one again. */
export const METADATA_EVENT_TYPE = 'graded_tools_confirmation';

/** The buttons' `action_id`s. */
export const ACTIONS = {
  approve: 'graded_tools_approve',
  reject: 'graded_tools_reject',
  edit: 'graded_tools_edit',
  /** Undo: take back a send held in its undo window (`holdMs`). */
  cancel: 'graded_tools_cancel',
} as const;

/** The link button to the console page of a card too short for its payload (Slack opens it itself). */
export const OPEN_CONSOLE_ACTION = 'graded_tools_open_console';

/** The modals' `callback_id`s. */
export const FORMS = {
  reject: 'graded_tools_reject',
  edit: 'graded_tools_edit',
} as const;

export type ButtonAction = keyof typeof ACTIONS;
export type FormKind = keyof typeof FORMS;

/** What a button says: which confirmation, and the digest of the payload the message showed. */
export interface ButtonValue {
  readonly id: string;
  readonly digest: string;
}

const ID = /^[A-Za-z0-9_-]{8,128}$/;
const DIGEST = /^[0-9a-f]{64}$/;

/** A button's `value` (well under Block Kit's 2,000 characters). */
export function buttonValue(value: ButtonValue): string {
  return JSON.stringify({ id: value.id, digest: value.digest });
}

/** A button's `value` read back, or `undefined` when it is not one of ours. */
export function readButtonValue(text: unknown): ButtonValue | undefined {
  if (typeof text !== 'string' || text.length > 2000) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value !== 'object' || value === null) return undefined;
    const { id, digest } = value as Record<string, unknown>;
    return typeof id === 'string' && ID.test(id) && typeof digest === 'string' && DIGEST.test(digest)
      ? { id, digest }
      : undefined;
  } catch {
    return undefined;
  }
}

/** The metadata of the message for one confirmation. */
export function messageMetadata(id: string): {
  event_type: string;
  event_payload: { confirmation_id: string };
} {
  return { event_type: METADATA_EVENT_TYPE, event_payload: { confirmation_id: id } };
}

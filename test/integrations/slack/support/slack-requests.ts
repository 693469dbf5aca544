// What Slack sends to the interactivity Request URL, signed as Slack signs it.
import { createHmac, randomUUID } from 'node:crypto';
import type { FakeMessage } from './fake-slack.js';

export const SIGNING_SECRET = '8f742231b10e8888abcd99yyyzzz85a5';
export const URL = 'https://desk.example/slack/interactivity';

/** The form body Slack posts: `payload=<JSON>`. */
export function formBody(payload: object): string {
  return new URLSearchParams({ payload: JSON.stringify(payload) }).toString();
}

/** A request signed with `secret` at `timestamp` (seconds; now by default). */
export function signed(
  body: string,
  options: { secret?: string; timestamp?: number; signBody?: string } = {},
): Request {
  const timestamp = String(options.timestamp ?? Math.floor(Date.now() / 1000));
  const secret = options.secret ?? SIGNING_SECRET;
  const mac = createHmac('sha256', secret)
    .update(`v0:${timestamp}:${options.signBody ?? body}`)
    .digest('hex');
  return new Request(URL, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      'x-slack-request-timestamp': timestamp,
      'x-slack-signature': `v0=${mac}`,
    },
    body,
  });
}

/** The button with `actionId` in a message's blocks. */
export function buttonOf(message: FakeMessage, actionId: string): Record<string, unknown> | undefined {
  for (const block of message.blocks as Record<string, unknown>[]) {
    if (block.type !== 'actions') continue;
    const found = (block.elements as Record<string, unknown>[]).find((e) => e.action_id === actionId);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** A `block_actions` payload: `user` clicked the button `actionId` on `message` in `channel`. */
export function click(message: FakeMessage, actionId: string, user: string, channel = 'C0APPROVERS'): object {
  const button = buttonOf(message, actionId);
  if (button === undefined) throw new Error(`no ${actionId} button on the message`);
  return {
    type: 'block_actions',
    user: { id: user, username: user.toLowerCase(), team_id: 'T0DESK' },
    team: { id: 'T0DESK' },
    channel: { id: channel, name: 'approvers' },
    container: { type: 'message', message_ts: message.ts, channel_id: channel },
    message: { ts: message.ts, type: 'message' },
    trigger_id: `${Date.now()}.trigger.${randomUUID()}`,
    response_url: 'https://hooks.slack.com/actions/T0DESK/1/abc',
    actions: [
      {
        type: 'button',
        action_id: actionId,
        block_id: 'graded_tools_decision',
        value: button.value,
        action_ts: String(Date.now() / 1000),
      },
    ],
  };
}

/** A `view_submission` payload for a modal opened by `views.open`, with `values` by input block id. */
export function submit(
  view: Record<string, unknown>,
  user: string,
  values: Record<string, string | null>,
): object {
  const state: Record<string, Record<string, unknown>> = {};
  for (const block of view.blocks as Record<string, unknown>[]) {
    if (block.type !== 'input') continue;
    const blockId = String(block.block_id);
    const actionId = String((block.element as Record<string, unknown>).action_id);
    const initial = (block.element as Record<string, unknown>).initial_value;
    const value = blockId in values ? values[blockId] : (initial ?? null);
    state[blockId] = { [actionId]: { type: 'plain_text_input', value } };
  }
  return {
    type: 'view_submission',
    user: { id: user, team_id: 'T0DESK' },
    team: { id: 'T0DESK' },
    view: {
      id: 'V0MODAL',
      type: 'modal',
      callback_id: view.callback_id,
      private_metadata: view.private_metadata,
      state: { values: state },
    },
  };
}

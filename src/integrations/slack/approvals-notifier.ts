import type { ApprovalNotice, Notifier, NotifyResult } from '../../notice.js';
import { oneAttemptNotifier } from '../../notify/one-attempt.js';
import type { ApprovalMessages } from './approval-messages.js';

/** The channel's name in `notify` events. */
export const CHANNEL = 'slack-approvals';

/**
 * The notifier half: `created` posts the card with its buttons, `reminder` replies in its thread, and
 * `decided` draws it again as decided. The registry hands a notice to the channels of the instance
 * that made the change, so each reaches Slack once across instances. Never rejects.
 */
export function approvalsNotifier(messages: ApprovalMessages): Notifier {
  return oneAttemptNotifier(CHANNEL, (notice) => sendOne(messages, notice));
}

function sendOne(messages: ApprovalMessages, notice: ApprovalNotice): Promise<NotifyResult> {
  const { id, expiresAt } = notice.confirmation;
  messages.learnLink(id, typeof notice.link === 'string' ? notice.link : undefined);
  if (notice.kind === 'created') return messages.post(id);
  if (notice.kind === 'reminder') return messages.remind(id, expiresAt);
  return messages.refresh(id);
}

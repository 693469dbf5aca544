import type { ApprovalNotice, Notifier, NotifyResult } from '../../notice.js';
import { describeThrown } from '../../util/describe-thrown.js';
import type { ApprovalMessages } from './approval-messages.js';

/** The channel's name in `notify` events. */
export const CHANNEL = 'slack-approvals';

/**
 * The notifier half: `created` posts the card with its buttons, `reminder` replies in its thread, and
 * `decided` draws it again as decided. The registry hands a notice to the channels of the instance
 * that made the change, so each reaches Slack once across instances. Never rejects.
 */
export function approvalsNotifier(messages: ApprovalMessages): Notifier {
  return {
    channel: CHANNEL,
    async send(notice, { signal, onAttempt }) {
      const started = performance.now();
      let outcome: NotifyResult;
      let noticeId = '';
      try {
        noticeId = String(notice.id);
        outcome = signal?.aborted ? { ok: false, error: 'aborted' } : await sendOne(messages, notice);
      } catch (error) {
        outcome = { ok: false, error: `the notice could not be read: ${describeThrown(error)}` };
      }
      try {
        onAttempt?.({ channel: CHANNEL, noticeId, attempt: 1, ...outcome, ms: performance.now() - started });
      } catch {
        // What a listener throws is ignored.
      }
      return outcome;
    },
  };
}

function sendOne(messages: ApprovalMessages, notice: ApprovalNotice): Promise<NotifyResult> {
  const { id, expiresAt } = notice.confirmation;
  messages.learnLink(id, typeof notice.link === 'string' ? notice.link : undefined);
  if (notice.kind === 'created') return messages.post(id);
  if (notice.kind === 'reminder') return messages.remind(id, expiresAt);
  return messages.refresh(id);
}

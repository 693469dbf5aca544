import type { ApprovalNotice, Notifier, NotifyResult } from '../notice.js';
import { describeThrown } from '../util/describe-thrown.js';

/**
 * A chat channel's notifier (Slack, Teams): each notice is one attempt of `sendOne`, reported to
 * `onAttempt` (a listener's throw ignored), never rejecting — a notice that cannot be read, or an
 * aborted send, is a failed outcome.
 */
export function oneAttemptNotifier(
  channel: string,
  sendOne: (notice: ApprovalNotice) => Promise<NotifyResult>,
): Notifier {
  return {
    channel,
    async send(notice, { signal, onAttempt }) {
      const started = performance.now();
      let outcome: NotifyResult;
      let noticeId = '';
      try {
        noticeId = String(notice.id);
        outcome = signal?.aborted ? { ok: false, error: 'aborted' } : await sendOne(notice);
      } catch (error) {
        outcome = { ok: false, error: `the notice could not be read: ${describeThrown(error)}` };
      }
      try {
        onAttempt?.({ channel, noticeId, attempt: 1, ...outcome, ms: performance.now() - started });
      } catch {
        // What a listener throws is ignored.
      }
      return outcome;
    },
  };
}

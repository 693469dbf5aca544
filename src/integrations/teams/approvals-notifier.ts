import type { ApprovalNotice, Notifier, NotifyResult } from '../../notice.js';
import { describeThrown } from '../../util/describe-thrown.js';
import type { ApprovalCards } from './approval-cards.js';

/** The channel's name in `notify` events. */
export const CHANNEL = 'teams-approvals';

/**
 * The notifier half: `created` posts the card, and every other notice (`decided`, `reminder`) draws
 * it again as the store holds it. The registry hands a notice to the channels of the instance that
 * made the change, so each reaches Teams once across instances. Never rejects.
 */
export function approvalsNotifier(cards: ApprovalCards): Notifier {
  return {
    channel: CHANNEL,
    async send(notice, { signal, onAttempt }) {
      const started = performance.now();
      let outcome: NotifyResult;
      let noticeId = '';
      try {
        noticeId = String(notice.id);
        outcome = signal?.aborted ? { ok: false, error: 'aborted' } : await sendOne(cards, notice);
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

function sendOne(cards: ApprovalCards, notice: ApprovalNotice): Promise<NotifyResult> {
  const { id } = notice.confirmation;
  cards.learnLink(id, typeof notice.link === 'string' ? notice.link : undefined);
  return notice.kind === 'created' ? cards.post(id) : cards.refresh(id);
}

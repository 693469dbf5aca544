import type { ApprovalNotice, Notifier, NotifyResult } from '../../notice.js';
import { oneAttemptNotifier } from '../../notify/one-attempt.js';
import type { ApprovalCards } from './approval-cards.js';

/** The channel's name in `notify` events. */
export const CHANNEL = 'teams-approvals';

/**
 * The notifier half: `created` posts the card, and every other notice (`decided`, `reminder`) draws
 * it again as the store holds it. The registry hands a notice to the channels of the instance that
 * made the change, so each reaches Teams once across instances. Never rejects.
 */
export function approvalsNotifier(cards: ApprovalCards): Notifier {
  return oneAttemptNotifier(CHANNEL, (notice) => sendOne(cards, notice));
}

function sendOne(cards: ApprovalCards, notice: ApprovalNotice): Promise<NotifyResult> {
  const { id } = notice.confirmation;
  cards.learnLink(id, typeof notice.link === 'string' ? notice.link : undefined);
  return notice.kind === 'created' ? cards.post(id) : cards.refresh(id);
}

// The words of the deciding button, said before the click: what pressing it will do.

import { approveCountText } from '../../messages/quorum-words.js';
import type { Card } from './api.js';
import { serverNow } from './countdown.js';
import { formatClock } from './decision-words.js';
import type { Strings } from './i18n.js';
import { needsMoreApprovals, pageLocale } from './quorum.js';

/**
 * What the deciding button says it will do, before the click: record one approval of several
 * ("Approve (1 of 2)"), send after the undo window ("Approve — sends at 14:05 unless undone"), or
 * confirm outright ("Confirm and send" / "Confirm and apply").
 */
export function confirmWords(card: Card, t: Strings): string {
  const { quorum } = card;
  if (needsMoreApprovals(card) && quorum !== undefined)
    return approveCountText(pageLocale(t.lang), quorum.approvedBy.length + 1, quorum.needed);
  if (card.holdMs !== undefined)
    return t.approveHeld(formatClock(new Date(serverNow() + card.holdMs).toISOString(), t.lang));
  return t.confirm;
}

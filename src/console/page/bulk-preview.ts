// "Confirm selected", said before the click and after it: every selected card with what confirming it
// does — sent now, held for its undo window, one approval of several, left to its card for a passkey,
// or left out and why — and then
// what it did. Drawn from what the server told the page (`offer`, `quorum`, `holdMs`): nothing is
// predicted here that the server did not say, and each confirm is still the check list's to decide.
import { passkeyWords, requiresPasskey } from '../../messages/passkey-words.js';
import type { Card, Decision } from './api.js';
import { serverNow } from './countdown.js';
import { describeDecision, formatClock, whyNotText } from './decision-words.js';
import type { Strings } from './i18n.js';
import { needsMoreApprovals } from './quorum.js';

/** What confirming one selected card will do. */
export type Fate =
  | { readonly kind: 'send' }
  | { readonly kind: 'hold'; readonly holdMs: number }
  /** Recorded as one approval of several: `count` of `needed` with this person's, nothing sent. */
  | { readonly kind: 'approval'; readonly count: number; readonly needed: number }
  /** Not confirmed with the others: this person is not offered Confirm, and why. */
  | { readonly kind: 'left-out'; readonly why: string }
  /** Not confirmed with the others: it needs this person's passkey, on its own card. */
  | { readonly kind: 'passkey' };

/** What confirming `card` will do, as the server's offer, quorum and undo window say. */
export function fateOf(card: Card, t: Strings): Fate {
  if (!card.offer.confirm)
    return { kind: 'left-out', why: whyNotText(card.offer, t) ?? t.whyNot.OTHER ?? '' };
  // One assertion signs one decision: a bulk confirm carries none, so it is left to its card.
  if (requiresPasskey(card)) return { kind: 'passkey' };
  const { quorum } = card;
  if (quorum !== undefined && needsMoreApprovals(card))
    return { kind: 'approval', count: quorum.approvedBy.length + 1, needed: quorum.needed };
  return card.holdMs === undefined ? { kind: 'send' } : { kind: 'hold', holdMs: card.holdMs };
}

/**
 * The card's destinations no one vouched for, in the server's words (`to`: "evil@attacker.test —
 * appears only in what the agent read from Inbox (inbox.read)", or "and 40 more, 3 of them not vouched
 * for") with the word that marks them, so a bulk confirm does not pass one by unread; for a card asked
 * outside a run, the heading with "not recorded (…)" and no mark; none when every destination was
 * vouched for (or the card has no origins).
 */
export function uncheckedOrigins(card: Card): { check: string; field: string; text: string }[] {
  const said = card.originsText;
  if (said === undefined) return [];
  if (said.notRecorded !== undefined) return [{ check: '', field: said.heading, text: said.notRecorded }];
  return said.lines
    .filter((line) => line.unvouched)
    .map((line) => ({ check: said.check, field: line.field, text: line.text }));
}

/** Whether "Confirm selected" sends this card's confirm (everything but a card left out). */
export function isConfirmed(fate: Fate): boolean {
  return fate.kind !== 'left-out' && fate.kind !== 'passkey';
}

/** The fate in the person's words, before the click: "Held until 14:05 so it can be undone, then sent". */
export function fateText(fate: Fate, t: Strings): string {
  switch (fate.kind) {
    case 'send':
      return t.fateSend;
    case 'hold':
      return t.fateHold(
        holdLength(fate.holdMs, t.lang),
        formatClock(new Date(serverNow() + fate.holdMs).toISOString(), t.lang),
      );
    case 'approval':
      return t.fateApproval(fate.count, fate.needed);
    case 'left-out':
      return t.fateLeftOut(fate.why);
    case 'passkey':
      return passkeyWords(t.lang).bulk;
  }
}

/** An undo window's length as the person's language says it: "30 seconds", "5 minutes", "2 hours". */
export function holdLength(ms: number, lang: string): string {
  const [amount, unit] =
    ms < 120_000
      ? [Math.round(ms / 1_000), 'second']
      : ms < 7_200_000
        ? [Math.round(ms / 60_000), 'minute']
        : [Math.round(ms / 3_600_000), 'hour'];
  try {
    return new Intl.NumberFormat(lang, { style: 'unit', unit, unitDisplay: 'long' }).format(amount);
  } catch {
    return `${amount} ${unit}s`;
  }
}

/** What happened to one card, after the click: the decision's words, or why it was left out. */
export function resultText(fate: Fate, decision: Decision | undefined, t: Strings): string {
  if (!isConfirmed(fate) || decision === undefined) return fateText(fate, t);
  return describeDecision(decision, 'confirm', t);
}

/** What the dialog's button says: how many it confirms, and that the rest are left out. */
export function confirmLabel(fates: readonly Fate[], t: Strings): string {
  return t.bulkConfirm(fates.filter(isConfirmed).length);
}

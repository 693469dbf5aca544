// What a tool's rules ask of the approvers, in words: "Needs 2 approvals from finance — Li approved"
// on an open card, "1 of 2" in an inbox row. The server says who approved the payload as it is now
// (`card.quorum`); the page only words it.
import type { Card } from './api.js';
import type { Strings } from './i18n.js';

/** "Li and Wu" / "Li和Wu": a list as the person's language joins it. */
export function listOf(items: readonly string[], locale: string): string {
  try {
    return new Intl.ListFormat(locale, { style: 'long', type: 'conjunction' }).format(items);
  } catch {
    return items.join(', ');
  }
}

/** The app's names for the people who approved so far, oldest first. */
export function approverNames(card: Card): string[] {
  return (card.quorum?.approvedBy ?? []).map((id) =>
    Object.hasOwn(card.names, id) ? (card.names[id] ?? id) : id,
  );
}

/** "Needs 2 approvals from finance — Li approved", or `undefined` for one plain approval. */
export function quorumLine(card: Card, t: Strings): string | undefined {
  const { quorum } = card;
  if (quorum === undefined) return undefined;
  const needs = t.needs(quorum.needed, listOf(quorum.flags, t.lang));
  const names = approverNames(card);
  return names.length === 0 ? needs : needs + t.approvedSoFar(listOf(names, t.lang));
}

/** Whether confirming would record an approval rather than send: the rules ask for more people. */
export function needsMoreApprovals(card: Card): boolean {
  const { quorum } = card;
  return quorum !== undefined && quorum.approvedBy.length + 1 < quorum.needed;
}

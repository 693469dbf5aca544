// What a tool's rules ask of the approvers, in words: "Needs 2 approvals from finance — 1 of 2
// approved: Li" on an open card, "1 of 2" in an inbox row. The server says who approved the payload as
// it is now (`card.quorum`); the words are every surface's (src/messages/quorum-words.ts).
import { listText, quorumSentence } from '../../messages/quorum-words.js';
import type { Card } from './api.js';
import type { Strings } from './i18n.js';

/** "Li and Wu" / "Li和Wu": a list as the person's language joins it. */
export function listOf(items: readonly string[], locale: string): string {
  return listText(pageLocale(locale), items);
}

/** The page's language as the shared words know it (English for anything else). */
export function pageLocale(lang: string): 'en' | 'zh-CN' {
  return lang === 'zh-CN' ? 'zh-CN' : 'en';
}

/** The app's names for the people who approved so far, oldest first. */
export function approverNames(card: Card): string[] {
  return (card.quorum?.approvedBy ?? []).map((id) =>
    Object.hasOwn(card.names, id) ? (card.names[id] ?? id) : id,
  );
}

/** "Needs 2 approvals from finance — 1 of 2 approved: Li", or `undefined` for one plain approval. */
export function quorumLine(card: Card, t: Pick<Strings, 'lang'>): string | undefined {
  const { quorum } = card;
  if (quorum === undefined) return undefined;
  const names = approverNames(card);
  const asked = { needed: quorum.needed, flags: quorum.flags, approved: names.length };
  return quorumSentence(pageLocale(t.lang), asked, names);
}

/** Whether confirming would record an approval rather than send: the rules ask for more people. */
export function needsMoreApprovals(card: Card): boolean {
  const { quorum } = card;
  return quorum !== undefined && quorum.approvedBy.length + 1 < quorum.needed;
}

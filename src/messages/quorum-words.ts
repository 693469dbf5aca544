import type { Locale } from './catalog.js';

/**
 * What a tool's rules ask of the approvers of one confirmation, as the words read it: how many
 * different people (`needed`), the feature flags each must hold (`flags`), and how many approved the
 * payload as it is now (`approved`).
 */
export interface QuorumAsked {
  readonly needed: number;
  readonly flags: readonly string[];
  readonly approved: number;
}

/**
 * The quorum sentence, as every surface says it (the console's card, Slack, mail, Slack notices,
 * webhooks): "Needs 2 approvals from finance — 1 of 2 approved", and with the people's names where a
 * surface knows them ("… — 1 of 2 approved: Li"). `undefined` for one plain approval (one person, no
 * flags), which the gates and four eyes already say.
 */
export function quorumSentence(
  locale: Locale | undefined,
  asked: QuorumAsked,
  names: readonly string[] = [],
): string | undefined {
  const { needed, flags, approved } = asked;
  if (needed <= 1 && flags.length === 0) return undefined;
  const zh = locale === 'zh-CN';
  const who = listText(locale, flags);
  const needs = zh
    ? flags.length === 0
      ? `需要 ${needed} 位不同的人批准`
      : needed === 1
        ? `需要一位拥有 ${who} 权限的人批准`
        : `需要 ${needed} 位拥有 ${who} 权限的人批准`
    : flags.length === 0
      ? `Needs ${needed} approvals from different people`
      : needed === 1
        ? `Needs an approval from ${who}`
        : `Needs ${needed} approvals from ${who}`;
  if (approved <= 0 || needed <= 1) return needs;
  const count = zh ? ` — 已有 ${approved}/${needed} 人批准` : ` — ${approved} of ${needed} approved`;
  if (names.length === 0) return needs + count;
  return `${needs}${count}${zh ? '：' : ': '}${listText(locale, names)}`;
}

/** How far the approvals are, short, after a label: "1 of 2" / "1/2". */
export function approvalCount(locale: Locale | undefined, count: number, needed: number): string {
  return locale === 'zh-CN' ? `${count}/${needed}` : `${count} of ${needed}`;
}

/**
 * The deciding button while more people must approve: it records the `count`th approval of `needed`
 * and sends nothing yet ("Approve (1 of 2)" / "批准（第 1/2 个）").
 */
export function approveCountText(locale: Locale | undefined, count: number, needed: number): string {
  return locale === 'zh-CN'
    ? `批准（第 ${approvalCount(locale, count, needed)} 个）`
    : `Approve (${approvalCount(locale, count, needed)})`;
}

/** `Li`, `Li and Wu`, `Li, Wu, and Ana` / `Li和Wu`: a list as the language joins it. */
export function listText(locale: Locale | undefined, items: readonly string[]): string {
  try {
    return new Intl.ListFormat(locale ?? 'en', { style: 'long', type: 'conjunction' }).format(items);
  } catch {
    return items.join(', ');
  }
}

import type { Locale } from './catalog.js';

/**
 * The flag on a proposal that another pending one of the same tool has the same payload, as every
 * surface says it: "another pending Refund with the same payload: #<id>" (`title` is the tool's title).
 */
export function alikeText(title: string, id: string, locale: Locale | undefined): string {
  if (locale === 'zh-CN') return `另一条待确认的 ${title} 内容相同：#${id}`;
  return `another pending ${title} with the same payload: #${id}`;
}

import type { Locale } from './catalog.js';

/**
 * The flag on a proposal that another pending one of the same tool has the same payload — or, failing
 * that, the same `ref` — as every surface says it (`title` is the tool's title):
 * "another pending Refund with the same payload: #<id>" or
 * "another pending Refund with the same reference ORDER-7: #<id>".
 */
export function alikeText(
  title: string,
  alike: { readonly id: string; readonly ref?: string | undefined },
  locale: Locale | undefined,
): string {
  const { id, ref } = alike;
  if (locale === 'zh-CN')
    return ref === undefined
      ? `另一条待确认的 ${title} 内容相同：#${id}`
      : `另一条待确认的 ${title} 引用相同（${ref}）：#${id}`;
  return ref === undefined
    ? `another pending ${title} with the same payload: #${id}`
    : `another pending ${title} with the same reference ${ref}: #${id}`;
}

import type { ErrorCode } from '../result.js';
import type { Locale, MessageCatalog, MessageParams } from './catalog.js';
import { en } from './en.js';
import { zhCN } from './zh-CN.js';

const catalogs: Readonly<Record<Locale, MessageCatalog>> = { en, 'zh-CN': zhCN };

/**
 * The message for `code` in `locale` (English for an unknown locale).
 *
 * @example
 * ```ts
 * import { formatMessage } from 'graded-tools';
 * formatMessage('TIMEOUT', { tool: 'kb.search', ms: 500 }, 'zh-CN'); // '工具 “kb.search” 未在 500 毫秒内完成。'
 * ```
 */
export function formatMessage(code: ErrorCode, params: MessageParams, locale: Locale = 'en'): string {
  return catalogs[toLocale(locale, 'en')][code](params);
}

/**
 * `value` when it names a catalog of ours, else `fallback`. An own-property check, so a caller's
 * `'constructor'` or `'__proto__'` never reaches `Object.prototype`.
 */
export function toLocale(value: unknown, fallback: Locale): Locale {
  return typeof value === 'string' && Object.hasOwn(catalogs, value) ? (value as Locale) : fallback;
}

/** The `locale` of a caller's options: one that cannot be read, or names no catalog, is `fallback`. */
export function localeOption(options: { readonly locale?: unknown } | undefined, fallback: Locale): Locale {
  try {
    return toLocale(options?.locale, fallback);
  } catch {
    return fallback;
  }
}

export type { Locale, MessageCatalog, MessageParams } from './catalog.js';

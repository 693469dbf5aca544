import type { ErrorCode } from '../result.js';
import type { Locale, MessageCatalog, MessageParams } from './catalog.js';
import { en } from './en.js';
import { zhCN } from './zh-CN.js';

const catalogs: Readonly<Record<Locale, MessageCatalog>> = { en, 'zh-CN': zhCN };

/** The message for `code` in `locale` (English for an unknown locale). */
export function formatMessage(code: ErrorCode, params: MessageParams, locale: Locale = 'en'): string {
  return (catalogs[locale] ?? en)[code](params);
}

export type { Locale, MessageCatalog, MessageParams } from './catalog.js';

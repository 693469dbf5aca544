import type { Locale } from '../messages/index.js';

/** The options every command that reads a registry for a caller takes: who it is, as `--scope`, `--flag`. */
export const CONTEXT_OPTIONS = {
  scope: { type: 'string' },
  flag: { type: 'string', multiple: true },
  locale: { type: 'string' },
} as const;

/** `--locale` read: the locale, or the usage error to print. */
export function readLocale(
  locale: string | undefined,
): { readonly locale: Locale | undefined } | { readonly usage: string } {
  if (locale === undefined || locale === 'en' || locale === 'zh-CN') return { locale };
  return { usage: `--locale is en or zh-CN (got "${locale}").` };
}

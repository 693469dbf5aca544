import type { Locale } from '../messages/index.js';

/** The options every command that reads a registry for a caller takes: who it is, as `--scope`, `--flag`. */
export const CONTEXT_OPTIONS = {
  scope: { type: 'string' },
  flag: { type: 'string', multiple: true },
  locale: { type: 'string' },
} as const;

/** `--locale` read: the locale, or the usage error to print. */
function readLocale(
  locale: string | undefined,
): { readonly locale: Locale | undefined } | { readonly usage: string } {
  if (locale === undefined || locale === 'en' || locale === 'zh-CN') return { locale };
  return { usage: `--locale is en or zh-CN (got "${locale}").` };
}

/** `--scope`, `--flag` and `--locale` read into a caller's context, or why they could not be. */
export function readContextOptions(values: {
  readonly scope?: string | undefined;
  readonly flag?: readonly string[] | undefined;
  readonly locale?: string | undefined;
}):
  | {
      readonly scope: string | undefined;
      readonly flags: readonly string[];
      readonly locale: Locale | undefined;
    }
  | { readonly usage: string } {
  const read = readLocale(values.locale);
  if ('usage' in read) return read;
  return { scope: values.scope, flags: values.flag ?? [], locale: read.locale };
}

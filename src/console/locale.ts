import type { Locale } from '../messages/index.js';

/**
 * The console's language for a request: the configured one, else the first language of the request's
 * `Accept-Language` (by weight) that we speak — any `zh*` reads as `'zh-CN'` — else `'en'`.
 */
export function requestLocale(configured: Locale | undefined, request: Request): Locale {
  if (configured !== undefined) return configured;
  return fromAcceptLanguage(request.headers.get('accept-language'));
}

/** The best language of an `Accept-Language` header that we speak, or `'en'`. */
export function fromAcceptLanguage(header: string | null): Locale {
  if (header === null) return 'en';
  const ranked = header
    .slice(0, 1_000)
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      const weight = q === undefined ? 1 : Number(q.slice(2));
      return { tag: tag.trim().toLowerCase(), weight: Number.isFinite(weight) ? weight : 0, index };
    })
    .filter((entry) => entry.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.index - b.index);
  for (const { tag } of ranked) {
    if (tag === 'zh' || tag.startsWith('zh-')) return 'zh-CN';
    if (tag === 'en' || tag.startsWith('en-')) return 'en';
  }
  return 'en';
}

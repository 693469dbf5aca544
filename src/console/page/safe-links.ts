// The asker's links, as the page shows them: http and https only (never javascript:, data: or a
// relative address), at most ten, each with a label.

export interface ShownLink {
  readonly label: string;
  readonly url: string;
}

/** `links` without any that is not an absolute http(s) URL with a label. */
export function safeLinks(links: readonly { label?: unknown; url?: unknown }[] | undefined): ShownLink[] {
  if (!Array.isArray(links)) return [];
  const shown: ShownLink[] = [];
  for (const link of links.slice(0, 10)) {
    if (typeof link?.url !== 'string' || typeof link.label !== 'string' || link.label.trim() === '') continue;
    let url: URL;
    try {
      url = new URL(link.url);
    } catch {
      continue;
    }
    if (url.protocol === 'http:' || url.protocol === 'https:')
      shown.push({ label: link.label, url: url.href });
  }
  return shown;
}

/**
 * `url` when the WHATWG parser reads it as an http(s) URL, as its `href`; else `undefined`. Plain
 * `http:` only to a loopback host (a stand-in in tests, a local emulator): a bot token and signed
 * keys travel over TLS everywhere else.
 */
export function secureUrl(url: unknown): string | undefined {
  if (typeof url !== 'string') return undefined;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  if (parsed.username !== '' || parsed.password !== '') return undefined;
  if (parsed.protocol === 'https:') return parsed.href;
  const loopback =
    parsed.hostname === '127.0.0.1' || parsed.hostname === 'localhost' || parsed.hostname === '[::1]';
  return parsed.protocol === 'http:' && loopback ? parsed.href : undefined;
}

/** An http(s) link for a card's button (an asker's link, the console): its `href`, or `undefined`. */
export function linkUrl(url: unknown): string | undefined {
  if (typeof url !== 'string') return undefined;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.href : undefined;
  } catch {
    return undefined;
  }
}

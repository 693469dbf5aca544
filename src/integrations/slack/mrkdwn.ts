// Text for Block Kit: Slack's own escaping for mrkdwn, and cuts that keep within its length limits.

/** Slack's rule for mrkdwn: `&`, `<` and `>` escaped, so no value becomes a mention, a channel or a link. */
export function escapeMrkdwn(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

/** `text` cut to at most `max` characters, ending in `…` when cut, never splitting a surrogate pair. */
export function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  let keep = Math.max(0, max - 1);
  const code = text.charCodeAt(keep - 1);
  if (keep > 0 && code >= 0xd800 && code <= 0xdbff) keep -= 1;
  return `${text.slice(0, keep)}…`;
}

/**
 * `text` escaped for mrkdwn and at most `max` characters long: cut before escaping, so an entity such
 * as `&amp;` is never cut in half, and cut again by what escaping added until it fits.
 */
export function escapedWithin(text: string, max: number): string {
  let room = max;
  for (;;) {
    const escaped = escapeMrkdwn(cut(text, room));
    if (escaped.length <= max || room <= 1) return escaped.length <= max ? escaped : '…';
    room -= escaped.length - max;
  }
}

/** A time each reader sees in their own time zone; the text after `|` is for clients that cannot. */
export function slackDate(iso: string): string {
  const time = new Date(iso);
  if (Number.isNaN(time.getTime())) return escapeMrkdwn(iso);
  const fallback = `${time.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
  return `<!date^${Math.floor(time.getTime() / 1000)}^{date_short_pretty} {time}|${fallback}>`;
}

/** A clock time (a held send's, within the day) each reader sees in their own time zone: "14:05". */
export function slackTime(iso: string): string {
  const time = new Date(iso);
  if (Number.isNaN(time.getTime())) return escapeMrkdwn(iso);
  const fallback = `${time.toISOString().slice(11, 16)} UTC`;
  return `<!date^${Math.floor(time.getTime() / 1000)}^{time}|${fallback}>`;
}

/** An http(s) URL Slack may link to, or `undefined`: nothing else becomes a button's `url`. */
export function webUrl(url: string): string | undefined {
  try {
    const { protocol } = new URL(url);
    return (protocol === 'https:' || protocol === 'http:') && url.length <= 3000 ? url : undefined;
  } catch {
    return undefined;
  }
}

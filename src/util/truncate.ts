/** The marker that ends a cut result, saying how much the model did not see. */
export function truncationMarker(omitted: number): string {
  return `…[truncated: ${omitted} more characters]`;
}

/**
 * `text` cut to at most `maxChars` characters, marker included, never splitting a surrogate pair.
 * Text that fits is returned unchanged.
 */
export function truncateText(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  let keep = Math.max(0, maxChars - truncationMarker(text.length).length);
  const code = text.charCodeAt(keep - 1);
  if (keep > 0 && code >= 0xd800 && code <= 0xdbff) keep -= 1;
  return text.slice(0, keep) + truncationMarker(text.length - keep);
}

const ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/**
 * `text` safe inside HTML text and inside a quoted attribute: the five characters that can end either
 * are replaced by entities. Every value this library writes into HTML (the console's pages, the
 * approval emails) goes through this one function.
 */
export function escapeHtml(text: string): string {
  return String(text).replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);
}

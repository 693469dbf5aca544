import { truncateText } from './truncate.js';

/**
 * Lines grouped, in order, into texts of at most `maxChars` each (joined by `\n`), a line longer than
 * that cut on its own: a channel that caps one block's text (Slack's 3,000 characters) shows every
 * line in as many blocks as it takes, instead of cutting off the last ones — a line marked Check among them.
 */
export function chunkLines(lines: readonly string[], maxChars: number): string[] {
  const chunks: string[] = [];
  let current = '';
  for (const raw of lines) {
    const line = truncateText(raw, maxChars);
    if (current !== '' && current.length + 1 + line.length > maxChars) {
      chunks.push(current);
      current = '';
    }
    current = current === '' ? line : `${current}\n${line}`;
  }
  if (current !== '') chunks.push(current);
  return chunks;
}

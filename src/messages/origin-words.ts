import type { TitledOrigin } from '../util/read-origins.js';
import type { Locale } from './catalog.js';

/** One destination field's origins in the approver's words: "to: appears only in what the agent read from Inbox (inbox.read)". */
export interface OriginLine {
  /** The destination field as the tool declares it (`to`, `to.email`). */
  readonly field: string;
  /** Where its value came from, in words: every place, joined. */
  readonly text: string;
  /**
   * Neither the person's request nor the app's trusted values vouch for it (read from a tool, or
   * found nowhere): the approver should check it. Surfaces mark it with `check`, in words.
   */
  readonly unvouched: boolean;
}

/** What every surface says about origins, in one language. */
export interface OriginWords {
  /** The heading of the block: "Where this came from". */
  readonly heading: string;
  /** The mark before an unvouched line, in words (never colour alone): "Check". */
  readonly check: string;
  /** Said once under the lines when any is unvouched: why to check and what to look for. */
  readonly caution: string;
  readonly request: string;
  readonly trusted: string;
  /** `sources`: the tools whose results held the value, already joined ("Inbox (inbox.read)"). */
  tool(sources: string): string;
  readonly none: string;
  /** Between the places of one field ("named in the person's request; one of the app's trusted values"). */
  readonly separator: string;
  /** The language lists of tools are joined in. */
  readonly lang: string;
}

const en: OriginWords = {
  heading: 'Where this came from',
  check: 'Check',
  caution:
    'Neither the person nor the app gave a value marked Check: the agent took it from something it read, or made it up. Make sure it is right before you confirm.',
  request: "named in the person's request",
  trusted: "one of the app's trusted values",
  tool: (sources) => `appears only in what the agent read from ${sources}`,
  none: 'appears nowhere the agent read or was told: it may be made up',
  separator: '; ',
  lang: 'en',
};

const zhCN: OriginWords = {
  heading: '这些值从哪里来',
  check: '请核实',
  caution:
    '标有“请核实”的值既不是用户给出的，也不是应用信任的：代理从它读取的内容中取得，或凭空编造。确认前请核对无误。',
  request: '出现在用户的请求中',
  trusted: '是应用信任的值之一',
  tool: (sources) => `只出现在代理从 ${sources} 读取的内容中`,
  none: '没有出现在代理读取或被告知的任何内容中：可能是编造的',
  separator: '；',
  lang: 'zh-CN',
};

const words: Readonly<Record<Locale, OriginWords>> = { en, 'zh-CN': zhCN };

/** The words about origins in `locale` (English for anything else). */
export function originWords(locale: unknown): OriginWords {
  return locale === 'zh-CN' ? words['zh-CN'] : words.en;
}

/**
 * Each destination field's origins as one line in the approver's words, in the order the fields were
 * stored. A field's places follow the record's order (request, trusted, tools, none); the tools of one
 * field are said together, each by its title with its name ("Inbox (inbox.read)"), or its name alone.
 */
export function originLines(
  origins: Readonly<Record<string, readonly TitledOrigin[]>> | undefined,
  locale: unknown,
): OriginLine[] {
  if (origins === undefined) return [];
  const w = originWords(locale);
  const list = new Intl.ListFormat(w.lang, { style: 'long', type: 'conjunction' });
  const lines: OriginLine[] = [];
  for (const [field, places] of Object.entries(origins)) {
    if (places.length === 0) continue;
    const tools = [...new Set(places.flatMap((o) => (o.from === 'tool' ? [toolName(o)] : [])))];
    const said: string[] = [];
    if (places.some((o) => o.from === 'request')) said.push(w.request);
    if (places.some((o) => o.from === 'trusted')) said.push(w.trusted);
    if (tools.length > 0) said.push(w.tool(list.format(tools)));
    if (places.some((o) => o.from === 'none')) said.push(w.none);
    const unvouched = places.some((o) => o.from === 'tool' || o.from === 'none');
    lines.push({ field, text: said.join(w.separator), unvouched });
  }
  return lines;
}

function toolName(origin: TitledOrigin): string {
  const name = origin.tool ?? '?';
  return origin.title === undefined || origin.title === name ? name : `${origin.title} (${name})`;
}

/**
 * A confirmation's `origins` as the approver reads them on every surface: a heading, one line per
 * destination field, the word that marks an unvouched line, and — when any line is unvouched — why to
 * check it.
 */
export interface OriginsText {
  readonly heading: string;
  readonly check: string;
  readonly caution?: string;
  readonly lines: readonly OriginLine[];
}

/** `origins` (tools titled where known) in the words of `locale`; `undefined` when there is nothing to say. */
export function originsText(
  origins: Readonly<Record<string, readonly TitledOrigin[]>> | undefined,
  locale: unknown,
): OriginsText | undefined {
  const lines = originLines(origins, locale);
  if (lines.length === 0) return undefined;
  const w = originWords(locale);
  return {
    heading: w.heading,
    check: w.check,
    ...(lines.some((line) => line.unvouched) ? { caution: w.caution } : {}),
    lines,
  };
}

/** One line as plain text: "Check — to: appears only in …" when unvouched, "cc: named in …" otherwise. */
export function originLineText(line: OriginLine, check: string): string {
  return line.unvouched ? `${check} — ${line.field}: ${line.text}` : `${line.field}: ${line.text}`;
}

import type { Locale } from '../messages/catalog.js';
import { readDestinationPath } from '../util/destination-path.js';
import type { TitledOrigin, TitledValueOrigin } from './read-origins.js';

/**
 * One line about a destination in the approver's words: a value and where it came from ("to:
 * evil@attacker.test — appears only in what the agent read from Inbox (inbox.read)"), a field's places
 * when the record holds no values ("to: named in the person's request"), or how many more values a
 * field holds past those shown ("to: and 40 more, 3 of them not vouched for").
 */
export interface OriginLine {
  /** The destination field as the tool declares it (`to`, `to[].address`, `/to/0/address`). */
  readonly field: string;
  /** The value the line is about, as a person reads it (absent on a field's line or a count). */
  readonly value?: string;
  /** What is said after the field, the value first when there is one: every place, joined. */
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
  /** `lists`: the names of the app's trusted lists that hold the value, already joined (may be empty). */
  trusted(lists: string): string;
  /** `sources`: the tools whose results held the value, already joined ("Inbox (inbox.read)"). */
  tool(sources: string): string;
  readonly none: string;
  /** Between the places of one field ("named in the person's request; one of the app's trusted values"). */
  readonly separator: string;
  /** Between a value and where it came from ("ana@example.com — named in the person's request"). */
  readonly dash: string;
  /** The values of a field past those shown: how many, and how many of them no one vouched for. */
  more(count: number, unvouched: number): string;
  /** Said for a destination a person changed by editing: the agent's origins no longer apply. */
  readonly edited: string;
  /** Said after the heading when the tool names destinations but the call named no agent run. */
  readonly notRecorded: string;
  /** The language lists of tools are joined in. */
  readonly lang: string;
}

const en: OriginWords = {
  heading: 'Where this came from',
  check: 'Check',
  caution:
    'Neither the person nor the app gave a value marked Check: the agent took it from something it read, or made it up. Make sure it is right before you confirm.',
  request: "named in the person's request",
  trusted: (lists) =>
    lists === '' ? "one of the app's trusted values" : `one of the app's trusted values (${lists})`,
  tool: (sources) => `appears only in what the agent read from ${sources}`,
  none: 'appears nowhere the agent read or was told: it may be made up',
  separator: '; ',
  dash: ' — ',
  more: (count, unvouched) =>
    unvouched === 0
      ? `and ${count} more, each named in the request or trusted`
      : `and ${count} more, ${unvouched} of them not vouched for`,
  edited: 'set by an approver who edited it',
  notRecorded: 'not recorded (proposed outside an agent run)',
  lang: 'en',
};

const zhCN: OriginWords = {
  heading: '这些值从哪里来',
  check: '请核实',
  caution:
    '标有“请核实”的值既不是用户给出的，也不是应用信任的：代理从它读取的内容中取得，或凭空编造。确认前请核对无误。',
  request: '出现在用户的请求中',
  trusted: (lists) => (lists === '' ? '是应用信任的值之一' : `是应用信任的值之一（${lists}）`),
  tool: (sources) => `只出现在代理从 ${sources} 读取的内容中`,
  none: '没有出现在代理读取或被告知的任何内容中：可能是编造的',
  separator: '；',
  dash: ' — ',
  more: (count, unvouched) =>
    unvouched === 0
      ? `另有 ${count} 个，均出现在请求中或是受信任的值`
      : `另有 ${count} 个，其中 ${unvouched} 个未经用户或应用担保`,
  edited: '由编辑它的审批人设定',
  notRecorded: '未记录（在代理运行之外提出）',
  lang: 'zh-CN',
};

const words: Readonly<Record<Locale, OriginWords>> = { en, 'zh-CN': zhCN };

/** The words about origins in `locale` (English for anything else). */
export function originWords(locale: unknown): OriginWords {
  return locale === 'zh-CN' ? words['zh-CN'] : words.en;
}

/** The most values of one field said one by one; the rest are counted, the unvouched among them named first. */
export const MAX_VALUES_SHOWN = 10;

/** Per destination field, each value with its origins (tools titled where known): what a surface reads. */
export type ShownValues = Readonly<Record<string, readonly TitledValueOrigin[]>>;

/**
 * The lines about each destination field, in the order the fields were stored. A field with values
 * (`values`) gets a line per value, each with its own places and its own mark; past
 * `MAX_VALUES_SHOWN` the unvouched values are shown first and the rest counted in one line that says
 * how many of them no one vouched for (and is marked when any). A field without values gets one line
 * of its places. Places follow the record's order (request, trusted, tools, none); the tools are said
 * together, each by its title with its name ("Inbox (inbox.read)"), or its name alone.
 */
export function originLines(
  origins: Readonly<Record<string, readonly TitledOrigin[]>> | undefined,
  locale: unknown,
  values?: ShownValues,
  edited: readonly string[] = [],
): OriginLine[] {
  const w = originWords(locale);
  const lines: OriginLine[] = [];
  const fields = [...new Set([...Object.keys(origins ?? {}), ...Object.keys(values ?? {})])];
  for (const field of fields) {
    // A person's edit replaced the agent's values: what was recorded of them describes what is not sent.
    if (edited.includes(readDestinationPath(field)?.parts[0] ?? field)) {
      lines.push({ field, text: w.edited, unvouched: false });
      continue;
    }
    const each = values !== undefined && Object.hasOwn(values, field) ? values[field] : undefined;
    if (each !== undefined && each.length > 0) {
      lines.push(...valueLines(field, each, w));
      continue;
    }
    const places = origins !== undefined && Object.hasOwn(origins, field) ? origins[field] : undefined;
    if (places === undefined || places.length === 0) continue;
    lines.push({ field, text: placesText(places, w), unvouched: places.some(isUnvouchedPlace) });
  }
  return lines;
}

function valueLines(field: string, values: readonly TitledValueOrigin[], w: OriginWords): OriginLine[] {
  const shown = new Set<number>();
  for (const pass of [true, false])
    for (const [i, v] of values.entries())
      if (shown.size < MAX_VALUES_SHOWN && isUnvouchedValue(v) === pass) shown.add(i);
  const lines: OriginLine[] = [];
  let hidden = 0;
  let hiddenUnvouched = 0;
  for (const [i, { value, origins }] of values.entries()) {
    const unvouched = isUnvouchedValue({ value, origins });
    if (!shown.has(i)) {
      hidden += 1;
      if (unvouched) hiddenUnvouched += 1;
      continue;
    }
    const places = origins.length === 0 ? [{ from: 'none' as const }] : origins;
    lines.push({ field, value, text: `${value}${w.dash}${placesText(places, w)}`, unvouched });
  }
  if (hidden > 0)
    lines.push({ field, text: w.more(hidden, hiddenUnvouched), unvouched: hiddenUnvouched > 0 });
  return lines;
}

function placesText(places: readonly TitledOrigin[], w: OriginWords): string {
  const list = new Intl.ListFormat(w.lang, { style: 'long', type: 'conjunction' });
  const tools = [...new Set(places.flatMap((o) => (o.from === 'tool' ? [toolName(o)] : [])))];
  const lists = [
    ...new Set(
      places.flatMap((o) =>
        o.from === 'trusted' && o.list !== undefined && o.list !== 'trusted' ? [o.list] : [],
      ),
    ),
  ];
  const said: string[] = [];
  if (places.some((o) => o.from === 'request')) said.push(w.request);
  if (places.some((o) => o.from === 'trusted')) said.push(w.trusted(list.format(lists)));
  if (tools.length > 0) said.push(w.tool(list.format(tools)));
  if (places.some((o) => o.from === 'none')) said.push(w.none);
  return said.join(w.separator);
}

/** A value with no place recorded is found nowhere: unvouched, like `none`. */
function isUnvouchedValue(value: TitledValueOrigin): boolean {
  return value.origins.length === 0 || value.origins.some(isUnvouchedPlace);
}

function isUnvouchedPlace(origin: TitledOrigin): boolean {
  return origin.from === 'tool' || origin.from === 'none';
}

function toolName(origin: TitledOrigin): string {
  const name = origin.tool ?? '?';
  return origin.title === undefined || origin.title === name ? name : `${origin.title} (${name})`;
}

/**
 * A confirmation's origins as the approver reads them on every surface: a heading, the lines (per
 * value where the record holds values), the word that marks an unvouched line, and — when any line is
 * unvouched — why to check it. `notRecorded` instead of lines when the tool names destinations but the
 * call named no agent run: "Where this came from: not recorded (proposed outside an agent run)".
 */
export interface OriginsText {
  readonly heading: string;
  readonly check: string;
  readonly caution?: string;
  readonly lines: readonly OriginLine[];
  readonly notRecorded?: string;
}

/** What a record says about origins, as every surface reads it (tools already titled where known). */
export interface OriginsSaid {
  readonly origins?: Readonly<Record<string, readonly TitledOrigin[]>> | undefined;
  readonly originValues?: ShownValues | undefined;
  readonly originsOutsideRun?: boolean | undefined;
  /** The top-level payload fields a person changed by editing: their destinations are said to be theirs. */
  readonly editedFields?: readonly string[] | undefined;
}

/** What a record says about origins in the words of `locale`; `undefined` when there is nothing to say. */
export function originsText(said: OriginsSaid, locale: unknown): OriginsText | undefined {
  const w = originWords(locale);
  const lines = originLines(said.origins, locale, said.originValues, said.editedFields);
  if (lines.length === 0) {
    if (said.originsOutsideRun !== true) return undefined;
    return { heading: w.heading, check: w.check, lines: [], notRecorded: w.notRecorded };
  }
  return {
    heading: w.heading,
    check: w.check,
    ...(lines.some((line) => line.unvouched) ? { caution: w.caution } : {}),
    lines,
  };
}

/** One line as plain text: "Check — to: evil@… — appears only in …" when unvouched, "to: ana@… — named in …" otherwise. */
export function originLineText(line: OriginLine, check: string): string {
  return line.unvouched ? `${check} — ${line.field}: ${line.text}` : `${line.field}: ${line.text}`;
}

/** The origins block as plain-text lines: the heading (with "not recorded …" after it), then each line. */
export function originsPlainLines(text: OriginsText): string[] {
  if (text.notRecorded !== undefined) return [`${text.heading}: ${text.notRecorded}`];
  return [`${text.heading}:`, ...text.lines.map((line) => originLineText(line, text.check))];
}

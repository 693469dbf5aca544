import type { FormatDefinition } from 'ajv/dist/2020.js';
import type * as FormatsModule from 'ajv-formats/dist/formats.js';
import { compileRe2 } from './patterns.js';

// The `format` checks both validators run: ajv-formats' table (every format it has, the same on Ajv and
// on Workers), with every regex run on RE2 instead of V8. V8 backtracks: `url` took ~2 s on a crafted
// 60 kB string, `uri` and `uri-reference` grew quadratically; RE2 takes time linear in the input
// whatever the regex. The few regexes RE2 cannot run (lookaround) are rewritten without it, to the same
// language; the time checks are shaped on RE2 first and date-time splits without an array; `byte` is
// checked on the whole string (ajv-formats' `m` flag let any one line pass). bench/validation-crafted.ts
// measures each format on 1 MB of crafted text against 1 MB of ordinary text.

type AjvFormats = typeof FormatsModule.fullFormats;
type Check = (text: string) => boolean;
/** What Ajv's `addFormat` takes, and what the Workers validator reads its string checks from. */
export type LinearFormat = FormatDefinition<string> | FormatDefinition<number> | true;

/** ajv-formats' table of formats from its loaded module, wherever the loader put the CommonJS exports. */
export function fullFormats(namespace: unknown): AjvFormats {
  const module = namespace as { fullFormats?: unknown; default?: { fullFormats?: unknown } };
  return (module.fullFormats ?? module.default?.fullFormats) as AjvFormats;
}

const isLetter = (char: string) => /^[a-zA-Z]$/.test(char);
const otherCase = (char: string) => (char === char.toLowerCase() ? char.toUpperCase() : char.toLowerCase());

/**
 * `source` matching ASCII letters in either case, as V8's `i` flag does without `u` (and, for the
 * ASCII and whole-range classes these regexes use, with it): RE2's own `(?i)` would also fold `K`
 * (Kelvin) into `k`. Escapes are copied as they are.
 */
function caseless(source: string): string {
  let out = '';
  let inClass = false;
  for (let i = 0; i < source.length; i += 1) {
    const char = source[i] ?? '';
    if (char === '\\') {
      const next = source[i + 1] ?? '';
      const end =
        next === 'u' && source[i + 2] === '{'
          ? source.indexOf('}', i) + 1
          : next === 'u'
            ? i + 6
            : next === 'x'
              ? i + 4
              : i + 2;
      out += source.slice(i, end);
      i = end - 1;
    } else if (char === '[' && !inClass) {
      inClass = true;
      out += char;
    } else if (char === ']' && inClass) {
      inClass = false;
      out += char;
    } else if (!isLetter(char)) {
      out += char;
    } else if (!inClass) {
      out += `[${char}${otherCase(char)}]`;
    } else if (source[i + 1] === '-' && isLetter(source[i + 2] ?? '')) {
      const last = source[i + 2] ?? '';
      out += `${char}-${last}${otherCase(char)}-${otherCase(last)}`;
      i += 2;
    } else {
      out += char + otherCase(char);
    }
  }
  return out;
}

/**
 * RE2 running `source`'s language with `flags` (`i` by {@link caseless}; `u` changes nothing in these
 * regexes). A whole-string match (every format regex is anchored at both ends): RE2 stops at the first
 * character no match can go on from, where a search would read on to the end.
 */
function onRe2(source: string, flags: string): Check {
  const re2 = compileRe2(flags.includes('i') ? caseless(source) : source);
  return (text) => re2.matches(text);
}

/**
 * ajv-formats' date-time check without its `split`, which made an array of a million strings from a
 * megabyte of spaces: one separator (`t` or a space), a date before it, a time after it.
 */
function dateTime(date: Check, time: Check): Check {
  const separator = /t|\s/i;
  return (text) => {
    const at = text.search(separator);
    if (at === -1) return false;
    const rest = text.slice(at + 1);
    return !separator.test(rest) && date(text.slice(0, at)) && time(rest);
  };
}

/** `source` with `from` replaced; throws when ajv-formats has changed the regex this rewrites. */
function rewrite(source: string, from: string, to: string): string {
  if (!source.includes(from)) throw new Error(`ajv-formats changed a format regex: ${from} not found`);
  return source.replace(from, to);
}

// ajv-formats' `url` refuses private IPv4 hosts with three negative lookaheads; RE2 has none, so the
// public addresses are spelled out (each alternative below is one excluded range taken out).
const MID = '(?:1?\\d{1,2}|2[0-4]\\d|25[0-5])';
const LAST = '(?:[1-9]\\d?|1\\d\\d|2[0-4]\\d|25[0-4])';
const PUBLIC_IPV4 = [
  // 1-223 without 10, 127, 169, 172, 192
  `(?:[1-9]|1[1-9]|[2-9]\\d|1[01]\\d|12[0-689]|1[3-5]\\d|16[0-8]|17[013-9]|18\\d|19[013-9]|2[01]\\d|22[0-3])(?:\\.${MID}){2}\\.${LAST}`,
  `169\\.(?:1?\\d{1,2}|2[0-4]\\d|25[0-35])\\.${MID}\\.${LAST}`, // not 169.254
  `192\\.(?:\\d{1,2}|1(?:[0-57-9]\\d|6[0-79])|2[0-4]\\d|25[0-5])\\.${MID}\\.${LAST}`, // not 192.168
  `172\\.(?:\\d|0\\d|1[0-5]|3[2-9]|[4-9]\\d|1\\d\\d|2[0-4]\\d|25[0-5])\\.${MID}\\.${LAST}`, // not 172.16-31
].join('|');
const URL_PRIVATE_IPV4 =
  '(?!(?:10|127)(?:\\.\\d{1,3}){3})(?!(?:169\\.254|192\\.168)(?:\\.\\d{1,3}){2})(?!172\\.(?:1[6-9]|2\\d|3[0-1])(?:\\.\\d{1,3}){2})(?:[1-9]\\d?|1\\d\\d|2[01]\\d|22[0-3])(?:\\.(?:1?\\d{1,2}|2[0-4]\\d|25[0-5])){2}(?:\\.(?:[1-9]\\d?|1\\d\\d|2[0-4]\\d|25[0-4]))';

// ajv-formats' `uri` regex (https://github.com/ajv-validator/ajv-formats, src/formats.ts, MIT), which
// the package keeps inside its `uri` function.
const URI =
  "^(?:[a-z][a-z0-9+\\-.]*:)(?:\\/?\\/(?:(?:[a-z0-9\\-._~!$&'()*+,;=:]|%[0-9a-f]{2})*@)?(?:\\[(?:(?:(?:(?:[0-9a-f]{1,4}:){6}|::(?:[0-9a-f]{1,4}:){5}|(?:[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){4}|(?:(?:[0-9a-f]{1,4}:){0,1}[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){3}|(?:(?:[0-9a-f]{1,4}:){0,2}[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){2}|(?:(?:[0-9a-f]{1,4}:){0,3}[0-9a-f]{1,4})?::[0-9a-f]{1,4}:|(?:(?:[0-9a-f]{1,4}:){0,4}[0-9a-f]{1,4})?::)(?:[0-9a-f]{1,4}:[0-9a-f]{1,4}|(?:(?:25[0-5]|2[0-4]\\d|[01]?\\d\\d?)\\.){3}(?:25[0-5]|2[0-4]\\d|[01]?\\d\\d?))|(?:(?:[0-9a-f]{1,4}:){0,5}[0-9a-f]{1,4})?::[0-9a-f]{1,4}|(?:(?:[0-9a-f]{1,4}:){0,6}[0-9a-f]{1,4})?::)|[Vv][0-9a-f]+\\.[a-z0-9\\-._~!$&'()*+,;=:]+)\\]|(?:(?:25[0-5]|2[0-4]\\d|[01]?\\d\\d?)\\.){3}(?:25[0-5]|2[0-4]\\d|[01]?\\d\\d?)|(?:[a-z0-9\\-._~!$&'()*+,;=]|%[0-9a-f]{2})*)(?::\\d*)?(?:\\/(?:[a-z0-9\\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})*)*|\\/(?:(?:[a-z0-9\\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})+(?:\\/(?:[a-z0-9\\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})*)*)?|(?:[a-z0-9\\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})+(?:\\/(?:[a-z0-9\\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})*)*)(?:\\?(?:[a-z0-9\\-._~!$&'()*+,;=:@/?]|%[0-9a-f]{2})*)?(?:#(?:[a-z0-9\\-._~!$&'()*+,;=:@/?]|%[0-9a-f]{2})*)?$";

// ajv-formats' time regex (src/formats.ts, kept inside its `time` functions): V8 reads a long run of
// second fractions back digit by digit when the end does not match, so RE2 rules out those first.
const TIME = '^(\\d\\d):(\\d\\d):(\\d\\d(?:\\.\\d+)?)(z|([+-])(\\d\\d)(?::?(\\d\\d))?)?$';

/** The checks that need more than moving a regex to RE2, built from ajv-formats' own regexes where it exports them. */
function rewritten(formats: AjvFormats): Record<string, Check> {
  const url = formats.url as RegExp;
  const hostname = formats.hostname as RegExp;
  const duration = formats.duration as RegExp;
  const onUrl = onRe2(rewrite(url.source, URL_PRIVATE_IPV4, `(?:${PUBLIC_IPV4})`), url.flags);
  const onHostname = onRe2(rewrite(hostname.source, '(?=.{1,253}\\.?$)', ''), hostname.flags);
  const onDuration = onRe2(
    rewrite(
      rewrite(duration.source, '(?!$)', ''),
      'T(?=\\d)(\\d+H)?(\\d+M)?(\\d+S)?',
      'T(?:\\d+H(?:\\d+M)?(?:\\d+S)?|\\d+M(?:\\d+S)?|\\d+S)',
    ),
    duration.flags,
  );
  const onUri = onRe2(URI, 'i');
  const validator = (format: unknown) => (format as { validate: Check }).validate;
  const timeShape = onRe2(TIME, 'i');
  const time =
    (check: Check): Check =>
    (text) =>
      timeShape(text) && check(text);
  const onByte = onRe2('^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$', '');
  return {
    url: onUrl,
    // The lookahead's bound: 1 to 253 characters, and one more for a final dot.
    hostname: (text) =>
      (text.length <= 253 || (text.length === 254 && text.endsWith('.'))) && onHostname(text),
    duration: (text) => text !== 'P' && onDuration(text),
    uri: (text) => (text.includes('/') || text.includes(':')) && onUri(text),
    byte: onByte,
    time: time(validator(formats.time)),
    'iso-time': time(validator(formats['iso-time'])),
    'date-time': dateTime(validator(formats.date), time(validator(formats.time))),
    'iso-date-time': dateTime(validator(formats.date), time(validator(formats['iso-time']))),
  };
}

/**
 * Every format ajv-formats enables, each checked in time linear in the input: its regex on RE2 (or the
 * rewrite above), its other functions as they are (`date`: one short regex; `regex`: V8 parses the
 * text, linear in its length), its number formats and annotations (`password`) as they are.
 */
export function linearFormats(formats: AjvFormats): Record<string, LinearFormat> {
  const own = rewritten(formats);
  const table: Record<string, LinearFormat> = {};
  for (const [name, format] of Object.entries(formats) as [string, unknown][]) {
    const check = own[name];
    if (check !== undefined) {
      // A rewritten check keeps the rest of ajv-formats' definition (date-time's `compare`, for formatMinimum).
      const rest = typeof format === 'object' && !(format instanceof RegExp) ? format : {};
      table[name] = { ...rest, type: 'string', validate: check } as LinearFormat;
    } else if (format instanceof RegExp)
      table[name] = { type: 'string', validate: onRe2(format.source, format.flags) };
    else if (typeof format === 'function') table[name] = { type: 'string', validate: format as Check };
    else if (typeof format === 'object' && format !== null && 'validate' in format) {
      // A regex with a `compare` (none today), or a function: the number formats keep their `type`.
      const { validate } = format as { validate: unknown };
      table[name] = {
        ...(format as object),
        ...(validate instanceof RegExp ? { validate: onRe2(validate.source, validate.flags) } : {}),
      } as LinearFormat;
    } else table[name] = format as LinearFormat;
  }
  return table;
}

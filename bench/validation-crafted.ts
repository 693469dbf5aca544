import { createAjvValidator, createCfworkerValidator, type JsonSchemaValidator } from 'graded-tools';
import { median, timeOnce, verdict } from './measure.js';

// What crafted input costs against ordinary input of the same size, for every format the package
// enables and for uniqueItems, on both validators. Ordinary is a long value the check reads to its end
// (a valid one where the format has one), so that a linear check costs about the same on both.

const MB = 1_000_000;

/** `unit` repeated to about `size` characters, between `head` and `tail`. */
const fill = (head: string, unit: string, tail: string, size: number) =>
  head + unit.repeat(Math.max(1, Math.floor((size - head.length - tail.length) / unit.length))) + tail;

const PROSE = 'The quick brown fox jumps over the lazy dog, then files a refund for order 4411. ';

/** Ordinary text for each format at `size`: a long valid value where the format has one, else prose. */
const ORDINARY: Record<string, (size: number) => string> = {
  date: (size) => fill('', PROSE, '', size),
  time: (size) => fill('12:00:00.', '1', 'Z', size),
  'date-time': (size) => fill('2024-01-01T12:00:00.', '1', 'Z', size),
  'iso-time': (size) => fill('12:00:00.', '1', '', size),
  'iso-date-time': (size) => fill('2024-01-01 12:00:00.', '1', '', size),
  duration: (size) => fill('P', '1', 'D', size),
  uri: (size) => fill('https://example.com/', 'path/segment-', '', size),
  'uri-reference': (size) => fill('../', 'path/segment-', '', size),
  'uri-template': (size) => fill('https://example.com/', '{id}/x', '', size),
  url: (size) => fill('https://www.example.com/', 'path/segment-', '', size),
  email: (size) => fill('', 'ann.lee.', 'x@mail.example.com', size),
  hostname: (size) => fill('', PROSE, '', size),
  ipv4: (size) => fill('', PROSE, '', size),
  ipv6: (size) => fill('', PROSE, '', size),
  regex: (size) => fill('^', '(?:refund|charge)\\s+[a-z]{2,8}\\d*', '$', size),
  uuid: (size) => fill('', PROSE, '', size),
  'json-pointer': (size) => fill('', '/a/b~1c', '', size),
  'json-pointer-uri-fragment': (size) => fill('#', '/a/b%20c', '', size),
  'relative-json-pointer': (size) => fill('1', '/a/b', '', size),
  byte: (size) => fill('', 'QUJD', '', size),
};

/** Crafted text: runs of the characters a backtracking regex retries on, after a prefix that keeps it reading. */
function craftedInputs(size: number): string[] {
  const runs = [
    'a',
    '.',
    '@',
    '-',
    '%',
    '/',
    ':',
    '0',
    '1.',
    'a.',
    'a-',
    'aa:',
    '%20',
    '::',
    '~0',
    '{a}',
    'A',
    ' ',
    'www.',
  ];
  const prefixes = ['', 'http://a.b/', 'a@', 'P', '12:00:00.', '#', '1', '//'];
  const out: string[] = [];
  for (const run of runs)
    for (const prefix of prefixes) for (const tail of ['', '!']) out.push(fill(prefix, run, tail, size));
  return out;
}

/** The three crafted inputs (by index) that cost `check` most at 128 kB, each timed thrice (cheap to try them all). */
async function costliest(check: (input: string) => unknown): Promise<number[]> {
  const timed: [number, number][] = [];
  const inputs = craftedInputs(128_000);
  for (const [index, input] of inputs.entries()) timed.push([await timeOnce(() => check(input), 3), index]);
  return timed
    .sort((a, b) => b[0] - a[0])
    .slice(0, 3)
    .map(([, index]) => index);
}

/**
 * The crafted input's time over the ordinary one's, taken within each of five rounds (the two run back
 * to back, so a busy machine slows both) and the median kept. Below a tenth of a millisecond both stop
 * at once and the ratio is timer noise, so times are floored there.
 */
async function pairedRatio(ordinary: () => unknown, crafted: () => unknown) {
  const ratios: number[] = [];
  const ordinaryTimes: number[] = [];
  const craftedTimes: number[] = [];
  for (let round = 0; round < 5; round += 1) {
    const ordinaryMs = Math.max(await timeOnce(ordinary, 1), 0.1);
    const craftedMs = Math.max(await timeOnce(crafted, 1), 0.1);
    ratios.push(craftedMs / ordinaryMs);
    ordinaryTimes.push(ordinaryMs);
    craftedTimes.push(craftedMs);
  }
  return { plainMs: median(ordinaryTimes), craftedMs: median(craftedTimes), ratio: median(ratios) };
}

async function formatRatios(name: string, validator: JsonSchemaValidator, size: number, lines: string[]) {
  await validator.load?.();
  let worstRatio = 0;
  for (const [format, ordinary] of Object.entries(ORDINARY)) {
    const check = validator.compile({ type: 'string', format });
    const all = craftedInputs(size);
    let crafted = '';
    let craftedMs = -1;
    for (const index of await costliest(check)) {
      const input = all[index] ?? '';
      const ms = await timeOnce(() => check(input), 3);
      if (ms > craftedMs) [crafted, craftedMs] = [input, ms];
    }
    const plain = ordinary(size);
    const paired = await pairedRatio(
      () => check(plain),
      () => check(crafted),
    );
    const { plainMs, ratio } = paired;
    craftedMs = paired.craftedMs;
    worstRatio = Math.max(worstRatio, ratio);
    lines.push(
      `  ${name.padEnd(9)} ${format.padEnd(26)} ordinary ${plainMs.toFixed(2).padStart(7)} ms · crafted ${craftedMs.toFixed(2).padStart(7)} ms (${JSON.stringify(crafted.slice(0, 14))}…) · ${ratio.toFixed(2)}x`,
    );
  }
  return worstRatio;
}

/** uniqueItems over ~1 MB of items: distinct small objects against items built to cost the most per byte. */
async function uniqueItemsRatio(name: string, validator: JsonSchemaValidator, lines: string[]) {
  await validator.load?.();
  const check = validator.compile({
    type: 'object',
    properties: { tags: { type: 'array', uniqueItems: true } },
  });
  const ordinary = { tags: Array.from({ length: 80_000 }, (_, i) => ({ id: i, tag: 'x' })) };
  // Objects with many keys in reverse order (each object's keys sorted), alike but for the last one;
  // and two objects of 40,000 keys each, the sort at its largest.
  const keys = Array.from({ length: 500 }, (_, i) => `k${String(999 - i).padStart(3, '0')}`);
  const manyKeys = (n: number, last: number) =>
    Object.fromEntries(
      Array.from({ length: n }, (_, k) => [`k${String(n - k).padStart(6, '0')}`, k === n - 1 ? last : 0]),
    );
  const craftedSets = [
    {
      tags: Array.from({ length: 200 }, (_, i) =>
        Object.fromEntries(keys.map((key, k) => [key, k === 499 ? i : 0])),
      ),
    },
    { tags: [manyKeys(40_000, 1), manyKeys(40_000, 2)] },
  ];
  let crafted = craftedSets[0] as object;
  let worstMs = -1;
  for (const candidate of craftedSets) {
    const ms = (await timeOnce(() => check(candidate), 3)) / JSON.stringify(candidate).length;
    if (ms > worstMs) [crafted, worstMs] = [candidate, ms];
  }
  const sizes = [JSON.stringify(ordinary).length, JSON.stringify(crafted).length];
  const plainMs = await timeOnce(() => check(ordinary), 3);
  const craftedMs = await timeOnce(() => check(crafted), 3);
  const perByte = craftedMs / (sizes[1] ?? 1) / (plainMs / (sizes[0] ?? 1));
  lines.push(
    `  ${name.padEnd(9)} uniqueItems                ordinary ${plainMs.toFixed(2).padStart(7)} ms (${((sizes[0] ?? 0) / MB).toFixed(2)} MB) · crafted ${craftedMs.toFixed(2).padStart(7)} ms (${((sizes[1] ?? 0) / MB).toFixed(2)} MB) · ${perByte.toFixed(2)}x per byte`,
  );
  return perByte;
}

/** Crafted against ordinary input for every enabled format and uniqueItems, on Ajv and on cfworker. */
export async function benchCraftedValidation({ quick = false } = {}): Promise<string[]> {
  const size = quick ? 256_000 : MB;
  const lines = [`## Crafted against ordinary input (${(size / MB).toFixed(2)} MB a value), target <= 2x`];
  let worst = 0;
  for (const [name, validator] of [
    ['Ajv', createAjvValidator()],
    ['cfworker', createCfworkerValidator()],
  ] as const) {
    worst = Math.max(worst, await formatRatios(name, validator, size, lines));
    worst = Math.max(worst, await uniqueItemsRatio(name, validator, lines));
  }
  lines.push(`  worst ratio ${worst.toFixed(2)}x (target <= 2x: ${verdict(worst <= 2)})`);
  return lines;
}

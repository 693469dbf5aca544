// What finding identifiers costs (#31): a run remembers what a tool returned by `keysIn`, so any page
// the agent reads sets its cost. 1 MB of ordinary prose (with a few emails, URLs and IBANs) against
// 1 MB of each crafted family, in paired rounds; each family's time as a ratio to the prose.
// `keysIn` reads each string up to MAX_SCANNED_CHARS, so 1 MB is read as strings of that length.
// `keysIn` is internal: this section imports it from the source (tsx), not the built package.
// Run alone: `npx tsx --tsconfig bench/tsconfig.json bench/identifiers.ts [--quick]`.
import { keyOf, keysIn, MAX_SCANNED_CHARS } from '../src/runs/identifiers.js';
import { comparePaired, median, verdict } from './measure.js';

/** The target: crafted text within this many times the prose of the same size. */
const TARGET_CRAFTED = 2;
const TOTAL_CHARS = 1_000_000;

const PROSE =
  'Thanks for the call today. As discussed, please send the signed contract to ana.lopez@example.com ' +
  'and copy the finance team; the invoice is on https://portal.example.org/invoices/2024-03 and the ' +
  'payment goes to DE89 3704 0044 0532 0130 00 before Friday. The meeting notes are on www.notes.example ' +
  "and Bob's summary follows. We reviewed the roadmap, the hiring plan and the budget for next quarter, " +
  'and agreed to revisit the open questions in two weeks. ';

/** One string of `length` characters made by repeating `unit` (cut at the end). */
const repeat = (unit: string, length: number) =>
  unit.repeat(Math.ceil(length / unit.length)).slice(0, length);

const hex = repeat('0123456789abcdef', 20_000);

/** Each family as the strings keysIn reads: 1 MB in strings of at most MAX_SCANNED_CHARS. */
const families: Record<string, (length: number) => string> = {
  prose: (n) => repeat(PROSE, n),
  dots: (n) => '.'.repeat(n),
  ats: (n) => '@'.repeat(n),
  hyphens: (n) => '-'.repeat(n),
  www: (n) => repeat('www.', n),
  letters: (n) => 'a'.repeat(n),
  'a.a.a.': (n) => repeat('a.', n),
  'a@ dots @': (n) => `a@${'.'.repeat(n - 3)}@`,
  '20 kB hex + email': (n) => repeat(`${hex} ana@example.com `, n),
  'a@a.aa ×N': (n) => repeat('a@a.aa ', n),
};

function strings(make: (length: number) => string): string[] {
  const parts: string[] = [];
  for (let left = TOTAL_CHARS; left > 0; left -= MAX_SCANNED_CHARS)
    parts.push(make(Math.min(left, MAX_SCANNED_CHARS)));
  return parts;
}

export async function benchIdentifiers(options: { quick: boolean }): Promise<string[]> {
  const inputs = Object.fromEntries(Object.entries(families).map(([name, make]) => [name, strings(make)]));
  let keys = 0;
  const contenders = Object.fromEntries(
    Object.entries(inputs).map(([name, parts]) => [
      name,
      () => {
        for (const text of parts) keysIn(text, () => keys++);
      },
    ]),
  );
  const { rates, timeRatios } = await comparePaired(contenders, { batch: 1, rounds: options.quick ? 5 : 11 });
  const lines = [
    `## Identifiers in 1 MB of text (keysIn, strings of ${MAX_SCANNED_CHARS.toLocaleString('en')} chars; paired rounds, median)`,
    `  prose                 ${(1000 / (rates.prose ?? 1)).toFixed(1)} ms per MB`,
  ];
  for (const name of Object.keys(families)) {
    if (name === 'prose') continue;
    const ratio = median(timeRatios(name, 'prose'));
    const ms = (1000 / (rates[name] ?? 1)).toFixed(1);
    lines.push(
      `  ${name.padEnd(20)}  ${ms} ms per MB, ${ratio.toFixed(2)}x prose (target <= ${TARGET_CRAFTED}x: ${verdict(ratio <= TARGET_CRAFTED)})`,
    );
  }
  return [...lines, ...(await benchValues(options.quick))];
}

/** keyOf judges a destination value whole (the egress check, a proposal): 1 MB values, same families. */
async function benchValues(quick: boolean): Promise<string[]> {
  const values = Object.fromEntries(
    Object.entries(families).map(([name, make]) => [name, make(TOTAL_CHARS)]),
  );
  values['https:// a.a.a.'] = `https://${repeat('a.', TOTAL_CHARS - 8)}`;
  values['https:// a@ dots'] = `https://a@${'.'.repeat(TOTAL_CHARS - 10)}`;
  const contenders = Object.fromEntries(
    Object.entries(values).map(([name, value]) => [name, () => keyOf(value)]),
  );
  const { rates, timeRatios } = await comparePaired(contenders, { batch: 1, rounds: quick ? 5 : 11 });
  const lines = [
    '## A destination value of 1 MB judged whole (keyOf; paired rounds, median)',
    `  prose                 ${(1000 / (rates.prose ?? 1)).toFixed(1)} ms`,
  ];
  for (const name of Object.keys(values)) {
    if (name === 'prose') continue;
    const ratio = median(timeRatios(name, 'prose'));
    lines.push(
      `  ${name.padEnd(20)}  ${(1000 / (rates[name] ?? 1)).toFixed(1)} ms, ${ratio.toFixed(2)}x prose (target <= ${TARGET_CRAFTED}x: ${verdict(ratio <= TARGET_CRAFTED)})`,
    );
  }
  return lines;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const line of await benchIdentifiers({ quick: process.argv.includes('--quick') })) console.log(line);
}

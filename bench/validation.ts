import { Ajv2020 } from 'ajv/dist/2020.js';
import { ToolRegistry } from 'graded-tools';
import { compareRates, formatRate, timeOnce, verdict } from './measure.js';
import { searchArgs, searchRun, searchSchema } from './search-tool.js';
import { benchCraftedValidation } from './validation-crafted.js';

// The 3-property schema of bench/core.ts, and the same with a `pattern` (which runs on RE2 here).
const plain = searchSchema;
const withPattern = {
  ...plain,
  properties: { ...plain.properties, query: { type: 'string', minLength: 1, pattern: '^[\\w ,.-]{1,200}$' } },
} as const;
// Unanchored with a group: not provably linear under backtracking, so RE2 (re2js) runs it.
const withRe2Pattern = {
  ...plain,
  properties: { ...plain.properties, query: { type: 'string', minLength: 1, pattern: '(refund|charge)' } },
} as const;
const args = searchArgs;
const run = searchRun;

async function compareWithBare(label: string, schema: object, quick: boolean): Promise<string[]> {
  const registry = new ToolRegistry().register({
    name: 'kb.search',
    description: 'Search.',
    sideEffect: 'read',
    inputSchema: schema as never,
    run,
  });
  // The bare path: Ajv with its default (backtracking) RegExp, as an app without this library would.
  const validate = new Ajv2020({ allErrors: true, strict: false }).compile(schema);
  const bare = async () => {
    const input = JSON.parse(args) as { query: string; limit: number };
    if (!validate(input)) throw new Error('invalid');
    return { ok: true, data: await run(input) };
  };
  if (!(await registry.invokeReadOnly('kb__search', args)).ok) throw new Error('bench tool does not run');
  const rates = await compareRates(
    {
      'graded-tools invokeReadOnly': () => registry.invokeReadOnly('kb__search', args),
      'bare JSON.parse + Ajv + run': bare,
    },
    quick ? { batch: 5_000, rounds: 5 } : { batch: 20_000, rounds: 11 },
  );
  const ours = rates['graded-tools invokeReadOnly'] ?? 0;
  const base = rates['bare JSON.parse + Ajv + run'] ?? 1;
  const lines = [`## Validation on the model exit: ${label}`];
  for (const [name, rate] of Object.entries(rates)) lines.push(`  ${name.padEnd(54)} ${formatRate(rate)}`);
  const overhead = base / ours;
  lines.push(
    `  cost vs bare: ${overhead.toFixed(2)}x the bare path's time (target <= 1.5x: ${verdict(overhead <= 1.5)})`,
  );
  return lines;
}

/** What one ReDoS input costs: RE2 through the registry against Ajv's default RegExp. */
async function redos(): Promise<string[]> {
  const schema = { type: 'object', properties: { q: { type: 'string', pattern: '^(a+)+$' } } } as const;
  const registry = new ToolRegistry().register({
    name: 'kb.find',
    description: 'Find.',
    sideEffect: 'read',
    inputSchema: schema,
    run: () => 'found',
  });
  const validate = new Ajv2020({ allErrors: true, strict: false }).compile(schema);
  const lines = ["## A ReDoS input: pattern '^(a+)+$', 'a' x n + '!'"];
  for (const n of [20, 23, 26]) {
    const raw = JSON.stringify({ q: `${'a'.repeat(n)}!` });
    const oursMs = await timeOnce(() => registry.invokeReadOnly('kb__find', raw), 3);
    const bareMs = await timeOnce(() => validate(JSON.parse(raw)), 1);
    lines.push(
      `  n = ${n}: graded-tools (RE2) ${oursMs.toFixed(2)} ms · Ajv with RegExp ${bareMs.toFixed(0)} ms`,
    );
  }
  const long = JSON.stringify({ q: `${'a'.repeat(100_000)}!` });
  const longMs = await timeOnce(() => registry.invokeReadOnly('kb__find', long), 3);
  lines.push(
    `  n = 100,000: graded-tools (RE2) ${longMs.toFixed(2)} ms (Ajv with RegExp: not measured, exponential)`,
  );
  return lines;
}

/** The validation benchmark: prints and returns its lines. */
export async function benchValidation({ quick = false } = {}): Promise<string[]> {
  const lines = [
    ...(await compareWithBare('3-property schema (bench/core.ts)', plain, quick)),
    ...(await compareWithBare(
      "the same with pattern '^[\\w ,.-]{1,200}$' (V8 runs it: linear)",
      withPattern,
      quick,
    )),
    ...(await compareWithBare(
      "the same with pattern '(refund|charge)' (RE2 runs it)",
      withRe2Pattern,
      quick,
    )),
    ...(await redos()),
    ...(await benchCraftedValidation({ quick })),
  ];
  return lines;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const line of await benchValidation({ quick: process.argv.includes('--quick') })) console.log(line);
}

// What `import 'graded-tools'` costs a fresh process: time to import and the memory it keeps, against a
// process that imports nothing. Each sample is its own Node process; the figures are medians.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { median } from './measure.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const entry = JSON.stringify(new URL('../dist/index.mjs', import.meta.url).href);

/** Imports the root entry (or nothing), runs `then`, and reports time and memory after a GC. */
const script = (importIt: boolean, then: string) => `
  const started = performance.now();
  ${importIt ? `const { ToolRegistry } = await import(${entry});` : ''}
  ${then}
  const ms = performance.now() - started;
  globalThis.gc();
  const { heapUsed, rss } = process.memoryUsage();
  console.log(JSON.stringify({ ms, heapUsed, rss }));
`;

const firstCompile = `
  const registry = new ToolRegistry().register({
    name: 'kb.search', description: 'Search.', sideEffect: 'read',
    inputSchema: { type: 'object', properties: { query: { type: 'string' } } },
    run: ({ query }) => query,
  });
  await registry.invokeReadOnly('kb__search', '{"query":"x"}');
`;

interface Sample {
  ms: number;
  heapUsed: number;
  rss: number;
}

function sample(code: string): Sample {
  const out = execFileSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', code], {
    cwd: root,
    encoding: 'utf8',
  });
  return JSON.parse(out.trim()) as Sample;
}

export async function benchImportCost(options: { readonly quick?: boolean } = {}): Promise<string[]> {
  const samples = options.quick === true ? 5 : 11;
  const cases = {
    'node, importing nothing': script(false, ''),
    "import 'graded-tools'": script(true, ''),
    '… and the first JSON Schema tool called (Ajv compiled)': script(true, firstCompile),
  };
  const rows: Record<string, Sample> = {};
  const runs: Record<string, Sample[]> = Object.fromEntries(Object.keys(cases).map((name) => [name, []]));
  // Interleaved, so the machine's drift hits every case alike.
  for (let i = 0; i < samples; i += 1) {
    for (const [name, code] of Object.entries(cases)) runs[name]?.push(sample(code));
  }
  for (const [name, list] of Object.entries(runs)) {
    rows[name] = {
      ms: median(list.map((s) => s.ms)),
      heapUsed: median(list.map((s) => s.heapUsed)),
      rss: median(list.map((s) => s.rss)),
    };
  }
  const bare = rows['node, importing nothing'] as Sample;
  const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  const lines = [
    `## The root entry's import cost (fresh process per sample, median of ${samples}; baseline: node importing nothing)`,
  ];
  for (const [name, row] of Object.entries(rows)) {
    const extra =
      row === bare
        ? ''
        : ` (+${(row.ms - bare.ms).toFixed(1)} ms, +${mb(row.heapUsed - bare.heapUsed)} heap, +${mb(row.rss - bare.rss)} rss)`;
    lines.push(
      `  ${name.padEnd(56)} ${row.ms.toFixed(1)} ms, heap ${mb(row.heapUsed)}, rss ${mb(row.rss)}${extra}`,
    );
  }
  return lines;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const line of await benchImportCost({ quick: process.argv.includes('--quick') })) console.log(line);
}

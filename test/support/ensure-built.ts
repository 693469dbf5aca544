import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The repository root. */
export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

const ENTRIES = [
  'index',
  'store',
  'testing',
  'openai',
  'anthropic',
  'gemini',
  'ai-sdk',
  'mcp',
  'mcp-server',
  'openai-agents',
  'langchain',
  'mastra',
  'console',
  'opentelemetry',
  'dbos',
  'cedar',
  'slack',
  'teams',
  'passkeys',
  'cli',
];
const LOCK = `${ROOT}.tmp/build.lock`;

const isBuilt = () => ENTRIES.every((entry) => existsSync(`${ROOT}dist/${entry}.mjs`));
const sleep = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/**
 * Tests of the published files need `dist/`. `npm test` builds before vitest; when a developer runs
 * vitest alone and `dist/` is missing, build once here (and say so) rather than skip. A lock
 * directory keeps test files in parallel workers from building over each other.
 */
export function ensureBuilt(): void {
  if (isBuilt()) return;
  mkdirSync(`${ROOT}.tmp`, { recursive: true });
  try {
    mkdirSync(LOCK);
  } catch {
    for (let waited = 0; existsSync(LOCK) && waited < 180_000; waited += 200) sleep(200);
    if (isBuilt()) return;
    throw new Error('dist/ is missing and another worker failed to build it; run `npx tsdown`');
  }
  try {
    console.warn('dist/ is missing: building it with tsdown for this test run');
    const built = spawnSync(process.execPath, [`${ROOT}node_modules/tsdown/dist/run.mjs`], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    if (built.status !== 0) throw new Error(`tsdown failed:\n${built.stdout}\n${built.stderr}`);
  } finally {
    rmSync(LOCK, { recursive: true, force: true });
  }
}

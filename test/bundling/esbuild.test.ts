import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build, type Metafile } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// A consumer of the built package, bundled as esbuild (and so wrangler, Vite, tsup) bundles it: the
// package resolved through node_modules and package.json `exports`/`imports`, as an app resolves it.
// Its dist/ and package.json are copied, not linked: through a link esbuild would read the repository's
// tsconfig.json, whose `paths` point at src/ (no consumer has it). Its dependencies resolve from the
// repository's node_modules (`nodePaths`), as from an app's.
const root = join(import.meta.dirname, '../..');
const built = join(root, 'dist/index.mjs');
const hasD1 = existsSync(join(root, 'dist/d1.mjs'));
const work = mkdtempSync(join(tmpdir(), 'graded-tools-bundle-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const consumer = `
import { ToolRegistry, createMemoryStore } from 'graded-tools';
import { createApprovalsConsole } from 'graded-tools/console';
import { hasCapability } from 'graded-tools/store';
${hasD1 ? "import * as d1 from 'graded-tools/d1';" : 'const d1 = undefined;'}

const registry = new ToolRegistry({ confirmations: createMemoryStore() }).register({
  name: 'crm.find',
  description: 'Find a contact.',
  sideEffect: 'read',
  inputSchema: {
    type: 'object',
    properties: {
      email: { type: 'string', format: 'email' },
      code: { type: 'string', pattern: '^(?<area>[A-Z]{2})-\\\\d{3}$' },
    },
    required: ['email'],
    additionalProperties: false,
  },
  run: ({ email }) => 'found ' + email,
});
const approvals = createApprovalsConsole({
  registry,
  basePath: '/approvals',
  authenticate: () => undefined,
  authorize: () => false,
});
const good = await registry.invoke('crm.find', { email: 'ann@example.com', code: 'AB-123' });
const bad = await registry.invoke('crm.find', { email: 'nope', code: 'ab-1' });
const session = await approvals.fetch(new Request('http://127.0.0.1/approvals/api/session'));
console.log(JSON.stringify({ good, bad, session: session.status, store: typeof hasCapability, d1: typeof d1 }));
`;

interface Bundle {
  readonly text: string;
  readonly inputs: readonly string[];
  /** What the bundle still imports at run time. */
  readonly imports: readonly string[];
  readonly file: string;
}

async function bundle(
  name: string,
  options: { platform: 'node' | 'neutral'; conditions?: string[] },
): Promise<Bundle> {
  const file = join(work, `${name}.mjs`);
  const result = await build({
    entryPoints: [join(work, 'consumer.mjs')],
    absWorkingDir: work,
    nodePaths: [join(root, 'node_modules')],
    bundle: true,
    format: 'esm',
    target: 'es2022',
    outfile: file,
    metafile: true,
    logLevel: 'silent',
    platform: options.platform,
    ...(options.conditions === undefined ? {} : { conditions: options.conditions }),
    // As wrangler with nodejs_compat: node builtins are the runtime's, everything else is bundled.
    ...(options.platform === 'neutral' ? { external: ['node:*'], mainFields: ['module', 'main'] } : {}),
  });
  const meta: Metafile = result.metafile;
  const output = Object.values(meta.outputs)[0];
  return {
    text: readFileSync(file, 'utf8'),
    inputs: Object.keys(meta.inputs),
    imports: (output?.imports ?? []).filter((entry) => entry.external).map((entry) => entry.path),
    file,
  };
}

/** The consumer's own line of output, run by Node. */
function run(file: string): { good: unknown; bad: unknown; session: number; store: string; d1: string } {
  const out = execFileSync(process.execPath, [file], { cwd: work, encoding: 'utf8' });
  return JSON.parse(out.trim().split('\n').at(-1) ?? '{}');
}

/**
 * What a bundle still loads at run time with `require`: esbuild turns every `require` it bundles into a
 * call of the bundled module, and leaves one it cannot resolve as `__require("…")`, which throws in
 * ESM. (Ajv's own source holds `require("ajv/dist/runtime/…")` as text for standalone code: not a call.)
 */
function runtimeRequires(text: string): string[] {
  return [...text.matchAll(/\b__require\(\s*["'`]([^"'`]+)["'`]/g)]
    .map((match) => match[1] ?? '')
    .filter((specifier) => !specifier.startsWith('node:'));
}

if (!existsSync(built))
  console.warn('[graded-tools] skipping the esbuild checks: dist/ is missing (run npx tsdown).');
if (!hasD1)
  console.warn('[graded-tools] the esbuild checks leave graded-tools/d1 out: dist/d1.mjs is not built.');

describe.skipIf(!existsSync(built))('the built package bundled by esbuild', () => {
  let node: Bundle;
  let workerd: Bundle;
  beforeAll(async () => {
    const installed = join(work, 'node_modules/graded-tools');
    mkdirSync(installed, { recursive: true });
    cpSync(join(root, 'dist'), join(installed, 'dist'), { recursive: true });
    cpSync(join(root, 'package.json'), join(installed, 'package.json'));
    writeFileSync(join(work, 'package.json'), JSON.stringify({ type: 'module' }));
    writeFileSync(join(work, 'consumer.mjs'), consumer);
    node = await bundle('node', { platform: 'node' });
    workerd = await bundle('workerd', { platform: 'neutral', conditions: ['workerd', 'worker', 'browser'] });
  });

  it('for Node: every module resolved, only node: builtins left, no createRequire or runtime require', () => {
    expectOnlyBuiltinsLeft(node);
    expect(node.inputs.some((path) => path.includes('node_modules/ajv/dist/'))).toBe(true);
  });

  it('for Node: the bundle runs, takes a good input and refuses a bad one with a structured error', () => {
    const answer = run(node.file);
    expectValidated(answer);
    expect(answer).toMatchObject({ session: 401, store: 'function', d1: hasD1 ? 'object' : 'undefined' });
  });

  it('for workerd (conditions workerd, worker, browser): cfworker in, Ajv and its code generation out', () => {
    expectOnlyBuiltinsLeft(workerd);
    expect(workerd.inputs.some((path) => path.includes('@cfworker/json-schema'))).toBe(true);
    expect(
      workerd.inputs.filter((path) => /node_modules\/ajv\/|ajv-formats\/dist\/index/.test(path)),
    ).toEqual([]);
    // Ajv compiles with `new Function`; nothing left may generate code (re2js's method `eval(input, pos) {…}` is not eval).
    expect(workerd.text).not.toMatch(/\bnew Function\(|(?<![.\w])eval\((?![^)]*\)\s*\{)/);
  });

  it('for workerd: the same answers, from cfworker', () => {
    const answer = run(workerd.file);
    expectValidated(answer);
    expect(answer).toMatchObject({ session: 401, store: 'function' });
  });
});

/** Both bundles answer alike: the good input runs, the bad one is refused with the same issues. */
function expectValidated(answer: { good: unknown; bad: unknown }): void {
  expect(answer.good).toEqual({ ok: true, data: 'found ann@example.com' });
  expect(answer.bad).toMatchObject({
    ok: false,
    code: 'INVALID_INPUT',
    issues: [
      { path: '/email', message: 'must match format "email"' },
      { path: '/code', message: 'must match pattern "^(?<area>[A-Z]{2})-\\d{3}$"' },
    ],
  });
}

/** Every module resolved into the bundle: only `node:` builtins left, no createRequire or runtime require. */
function expectOnlyBuiltinsLeft(bundle: { imports: readonly string[]; text: string }): void {
  expect(bundle.imports.filter((path) => !path.startsWith('node:'))).toEqual([]);
  expect(bundle.text).not.toContain('createRequire');
  expect(runtimeRequires(bundle.text)).toEqual([]);
}

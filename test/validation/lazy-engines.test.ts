import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../..');
const built = join(root, 'dist/index.mjs');
const ENGINES = ['ajv', 'ajv-formats', 're2js', '@cfworker/json-schema'];
const work = mkdtempSync(join(tmpdir(), 'graded-tools-lazy-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

// ESM imports are seen by a resolve hook (it runs on its own thread, so it writes to a file);
// CommonJS loads by `require.cache`. An engine loaded either way counts.
const hooks = join(work, 'hooks.mjs');
const log = join(work, 'esm.log');
writeFileSync(
  hooks,
  `import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  appendFileSync(${JSON.stringify(log)}, resolved.url + '\\n');
  return resolved;
}`,
);

/**
 * The engine packages a fresh Node process has loaded after importing dist and running `body`, under
 * the export `conditions` given (as a bundler for workerd would resolve them).
 */
function enginesLoadedAfter(body: string, conditions: readonly string[] = []): string[] {
  writeFileSync(log, '');
  const script = `
    import { register, createRequire } from 'node:module';
    register(${JSON.stringify(pathToFileURL(hooks).href)});
    const { ToolRegistry } = await import(${JSON.stringify(pathToFileURL(built).href)});
    const { z } = await import('zod');
    ${body}
    console.log(JSON.stringify(Object.keys(createRequire(import.meta.url).cache)));
  `;
  const flags = conditions.map((condition) => `--conditions=${condition}`);
  const out = execFileSync(process.execPath, [...flags, '--input-type=module', '-e', script], {
    cwd: root,
    encoding: 'utf8',
  });
  const files = [
    ...(JSON.parse(out.trim().split('\n').at(-1) ?? '[]') as string[]),
    ...readFileSync(log, 'utf8').split('\n'),
  ];
  return ENGINES.filter((name) => files.some((file) => file.includes(`/node_modules/${name}/`)));
}

const zodTool = `new ToolRegistry().register({
  name: 'kb.search', description: 'Search.', sideEffect: 'read',
  inputSchema: z.object({ query: z.string().regex(/^[a-z]+$/) }),
  run: ({ query }) => query,
})`;

if (!existsSync(built))
  console.warn('[graded-tools] skipping the lazy-engine checks: dist/ is missing (run npx tsdown).');

const jsonTool = (pattern?: string) => `new ToolRegistry().register({
  name: 'kb.search', description: 'Search.', sideEffect: 'read',
  inputSchema: { type: 'object', properties: { query: { type: 'string'${pattern === undefined ? '' : `, pattern: ${JSON.stringify(pattern)}`} } } },
  run: ({ query }) => query,
})`;

const firstCall = `
  const result = await registry.invokeReadOnly('kb__search', '{"query":"refunds"}');
  if (!result.ok) throw new Error(result.error);
`;

// re2js is imported with the root entry (register refuses a pattern RE2 cannot run, synchronously):
// 0.6 MB of heap and under 10 ms, measured with bench/import-cost.ts. The JSON Schema engines are not.
describe.skipIf(!existsSync(built))('the built root entry loads its validators on first use', () => {
  it('loads re2js at import, and no Ajv, ajv-formats or cfworker, nor for a Standard Schema tool', () => {
    const loaded = enginesLoadedAfter(`
      const registry = ${zodTool};
      ${firstCall}
    `);
    expect(loaded).toEqual(['re2js']);
  });

  it('loads Ajv and ajv-formats on the first JSON Schema compile, not at register', () => {
    const atRegister = enginesLoadedAfter(`globalThis.registry = ${jsonTool('^[a-z]+$')};`);
    expect(atRegister).toEqual(['re2js']);
    const atCall = enginesLoadedAfter(`const registry = ${jsonTool()}; ${firstCall}`);
    expect(atCall).toEqual(['ajv', 'ajv-formats', 're2js']);
  });

  it('loads cfworker and ajv-formats’ formats instead of Ajv under the workerd condition, on the first compile', () => {
    const atRegister = enginesLoadedAfter(`globalThis.registry = ${jsonTool()};`, ['workerd']);
    expect(atRegister).toEqual(['re2js']);
    const atCall = enginesLoadedAfter(`const registry = ${jsonTool('^[a-z]+$')}; ${firstCall}`, ['workerd']);
    // ajv-formats here is its table of formats alone (dist/formats.js: regexes and functions, no Ajv).
    expect(atCall).toEqual(['ajv-formats', 're2js', '@cfworker/json-schema']);
  });
});

import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../..');
const built = join(root, 'dist/index.mjs');
const ENGINES = ['ajv', 'ajv-formats', 're2js'];
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

/** The engine packages a fresh Node process has loaded after importing dist and running `body`. */
function enginesLoadedAfter(body: string): string[] {
  writeFileSync(log, '');
  const script = `
    import { register, createRequire } from 'node:module';
    register(${JSON.stringify(pathToFileURL(hooks).href)});
    const { ToolRegistry } = await import(${JSON.stringify(pathToFileURL(built).href)});
    const { z } = await import('zod');
    ${body}
    console.log(JSON.stringify(Object.keys(createRequire(import.meta.url).cache)));
  `;
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
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

describe.skipIf(!existsSync(built))('the built root entry loads its validators on first use', () => {
  it('loads no Ajv, ajv-formats or re2js at import, nor for a Standard Schema tool', () => {
    const loaded = enginesLoadedAfter(`
      const registry = ${zodTool};
      const result = await registry.invokeReadOnly('kb__search', '{"query":"refunds"}');
      if (!result.ok) throw new Error(result.error);
    `);
    expect(loaded).toEqual([]);
  });

  it('loads Ajv, ajv-formats and re2js on the first JSON Schema compile, not at register', () => {
    const atRegister = enginesLoadedAfter(`
      globalThis.registry = new ToolRegistry().register({
        name: 'kb.search', description: 'Search.', sideEffect: 'read',
        inputSchema: { type: 'object', properties: { query: { type: 'string' } } },
        run: ({ query }) => query,
      });
    `);
    expect(atRegister).toEqual([]);
    const atCall = enginesLoadedAfter(`
      const registry = new ToolRegistry().register({
        name: 'kb.search', description: 'Search.', sideEffect: 'read',
        inputSchema: { type: 'object', properties: { query: { type: 'string' } } },
        run: ({ query }) => query,
      });
      const result = await registry.invokeReadOnly('kb__search', '{"query":"refunds"}');
      if (!result.ok) throw new Error(result.error);
    `);
    expect(atCall).toEqual(ENGINES);
  });

  it('loads re2js for a JSON Schema pattern, which register checks', () => {
    const loaded = enginesLoadedAfter(`
      new ToolRegistry().register({
        name: 'kb.search', description: 'Search.', sideEffect: 'read',
        inputSchema: { type: 'object', properties: { query: { type: 'string', pattern: '^[a-z]+$' } } },
        run: ({ query }) => query,
      });
    `);
    expect(loaded).toEqual(['re2js']);
  });
});

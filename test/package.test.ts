import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';

// These tests read the built package (npm test builds it first), as a user would install it.
const root = join(import.meta.dirname, '..');
const dist = join(root, 'dist');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
  exports: Record<string, { types: string; default: string } | string>;
  peerDependencies: Record<string, string>;
  peerDependenciesMeta: Record<string, { optional?: boolean }>;
};

/** Every module specifier a built file and the chunks it imports pull in. */
function importsOf(file: string, seen = new Set<string>()): Set<string> {
  const found = new Set<string>();
  if (seen.has(file)) return found;
  seen.add(file);
  const code = readFileSync(file, 'utf8');
  for (const match of code.matchAll(
    /(?:^|[;\n])\s*(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|^import\s*['"]([^'"]+)['"]/gm,
  )) {
    const specifier = match[1] ?? match[2] ?? match[3] ?? '';
    if (specifier.startsWith('.')) {
      for (const inner of importsOf(join(dirname(file), specifier), seen)) found.add(inner);
    } else {
      found.add(specifier);
    }
  }
  return found;
}

describe('the built package', () => {
  beforeAll(() => {
    if (!existsSync(join(dist, 'index.mjs')))
      throw new Error('dist/ is missing: run `npm run build` (npm test does)');
  });

  it('loads from its root entry only its own dependencies and Node built-ins, never an optional integration', () => {
    const packages = [...importsOf(join(dist, 'index.mjs'))].map((s) =>
      s.startsWith('node:') ? 'node:' : s.split('/')[0],
    );
    const allowed = new Set(['node:', ...Object.keys(pkg.dependencies)]);
    expect(packages.filter((name) => !allowed.has(name ?? ''))).toEqual([]);
    expect(packages).toContain('ajv');
  });

  it('has exactly these subpaths, each built, and each integration SDK an optional peer', () => {
    // Adding a subpath is an API decision: change this list on purpose.
    expect(Object.keys(pkg.exports)).toEqual([
      '.',
      './sqlite',
      './postgres',
      './openai',
      './anthropic',
      './gemini',
      './ai-sdk',
      './mcp',
      './openai-agents',
      './langchain',
      './mastra',
      './package.json',
    ]);
    for (const target of Object.values(pkg.exports)) {
      if (typeof target === 'string') continue;
      expect(existsSync(join(root, target.default))).toBe(true);
      expect(existsSync(join(root, target.types))).toBe(true);
    }
    for (const sdk of ['@openai/agents', '@langchain/core', '@mastra/core']) {
      expect(pkg.peerDependencies[sdk]).toBeDefined();
      expect(pkg.peerDependenciesMeta[sdk]?.optional).toBe(true);
    }
  });

  it('imports and works from dist in a fresh Node process', () => {
    const script = `
      import { ToolRegistry } from ${JSON.stringify(join(dist, 'index.mjs'))};
      const registry = new ToolRegistry().register({ name: 'kb.search', description: 'Search.', sideEffect: 'read',
        inputSchema: { type: 'object', properties: { q: { type: 'string' } } }, run: (input) => input.q });
      const result = await registry.invokeReadOnly('kb__search', '{"q":"hi"}');
      console.log(JSON.stringify(result));`;
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(JSON.parse(out)).toEqual({ ok: true, data: 'hi' });
  });

  it('type-checks a consumer against dist with skipLibCheck off', () => {
    const consumer = join(root, '.tmp', 'consumer');
    rmSync(consumer, { recursive: true, force: true });
    mkdirSync(join(consumer, 'node_modules'), { recursive: true });
    symlinkSync(root, join(consumer, 'node_modules', 'graded-tools'), 'dir');
    writeFileSync(join(consumer, 'package.json'), '{ "type": "module" }');
    const entry = join(consumer, 'consumer.ts');
    writeFileSync(
      entry,
      `import { defineTool, ToolRegistry, type InvokeResult } from 'graded-tools';
       const tool = defineTool({ name: 'kb.search', description: 'Search.', sideEffect: 'read',
         inputSchema: { type: 'object' }, run: () => ['a'] });
       const registry = new ToolRegistry().register(tool);
       const result: InvokeResult = await registry.invoke('kb.search', {});
       if (!result.ok) console.log(result.code);
       export {};`,
    );
    const program = ts.createProgram([entry], {
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      target: ts.ScriptTarget.ES2023,
      strict: true,
      exactOptionalPropertyTypes: true,
      skipLibCheck: false,
      noEmit: true,
      types: ['node'],
      typeRoots: [join(root, 'node_modules', '@types')],
    });
    const problems = ts
      .getPreEmitDiagnostics(program)
      .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    expect(problems).toEqual([]);
  });

  it('passes publint and are-the-types-wrong over the packed tarball', () => {
    const bin = (name: string) => join(root, 'node_modules', '.bin', name);
    expect(execFileSync(bin('publint'), ['--strict'], { cwd: root, encoding: 'utf8' })).toContain('All good');
    execFileSync(bin('attw'), ['--pack', '.', '--profile', 'esm-only', '--quiet'], {
      cwd: root,
      encoding: 'utf8',
    });
  }, 60_000);
});

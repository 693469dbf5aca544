import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { compileSnippets } from './helpers/compile-snippets.js';

// The READMEs are what a new user copies: every TypeScript block compiles against the sources, and
// the quick start prints exactly what its comments say.
const root = join(import.meta.dirname, '..');
const outDir = join(root, '.tmp', 'readme-quick-start');
const readmes = ['README.md', 'README.zh-CN.md'];

const blocksOf = (file: string) =>
  [...readFileSync(join(root, file), 'utf8').matchAll(/```ts\n([\s\S]*?)```/g)].map(
    (match) => match[1] ?? '',
  );

describe('README', () => {
  it('compiles every TypeScript block in both languages', () => {
    const snippets = readmes.flatMap((readme) =>
      blocksOf(readme).map((code, index) => ({ name: `${readme}_${index}`, code })),
    );
    expect(snippets.length).toBeGreaterThanOrEqual(6);
    expect(compileSnippets('readme', snippets)).toEqual([]);
    // One tsc run over every block: tens of seconds on a loaded two-core machine.
  }, 180_000);

  it.each(readmes)('%s: the quick start prints what its comments promise', async (readme) => {
    const quickStart = blocksOf(readme)[0] ?? '';
    const promised = [...quickStart.matchAll(/^\/\/ ([[{].*)$/gm)].map((match) => match[1]);
    expect(promised.length).toBeGreaterThanOrEqual(3);
    mkdirSync(outDir, { recursive: true });
    const file = join(outDir, `quick-start-${readme.replace(/\W/g, '_')}.ts`);
    // One line per printed value, as the comments show them.
    writeFileSync(
      file,
      `import { inspect } from 'node:util';\ninspect.defaultOptions.breakLength = Infinity;\n${quickStart}`,
    );
    const { stdout } = await promisify(execFile)(join(root, 'node_modules', '.bin', 'tsx'), [file], {
      cwd: root,
      timeout: 30_000,
    });
    expect(stdout.trim().split('\n')).toEqual(promised);
  });
});

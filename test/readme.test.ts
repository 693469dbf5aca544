import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// The READMEs are what a new user copies: every TypeScript block compiles against the sources, and
// the quick start prints exactly what its comments say.
const root = join(import.meta.dirname, '..');
const outDir = join(root, '.tmp', 'readme');
const readmes = ['README.md', 'README.zh-CN.md'];

const blocksOf = (file: string) =>
  [...readFileSync(join(root, file), 'utf8').matchAll(/```ts\n([\s\S]*?)```/g)].map(
    (match) => match[1] ?? '',
  );

describe('README', () => {
  it('compiles every TypeScript block in both languages', () => {
    rmSync(outDir, { recursive: true, force: true });
    mkdirSync(outDir, { recursive: true });
    const files = readmes.flatMap((readme) =>
      blocksOf(readme).map((code, index) => {
        const path = join(outDir, `${readme.replace(/\W/g, '_')}_${index}.ts`);
        writeFileSync(path, `${code}\nexport {};\n`);
        return path;
      }),
    );
    expect(files.length).toBeGreaterThanOrEqual(6);
    const config = ts.getParsedCommandLineOfConfigFile(
      join(root, 'tsconfig.json'),
      {},
      {
        ...ts.sys,
        onUnRecoverableConfigFileDiagnostic: () => {},
      },
    );
    if (config === undefined) throw new Error('tsconfig.json could not be read');
    const program = ts.createProgram(files, { ...config.options, noUnusedLocals: false, noEmit: true });
    const problems = ts
      .getPreEmitDiagnostics(program)
      .filter((d) => d.file === undefined || d.file.fileName.startsWith(outDir))
      .map((d) => `${d.file?.fileName ?? ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
    expect(problems).toEqual([]);
  });

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

import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// Every `@example` in a doc comment under src/ is compiled against the sources with the project's
// strict settings, so the examples users copy cannot drift from the API.
const root = join(import.meta.dirname, '..');
const outDir = join(root, '.tmp', 'doc-examples');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

function examplesOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const examples: string[] = [];
  for (const comment of text.match(/\/\*\*[\s\S]*?\*\//g) ?? []) {
    const lines = comment.split('\n').map((line) => line.replace(/^\s*\*( |$)/, ''));
    const body = lines.join('\n');
    for (const match of body.matchAll(/@example\s*\n```ts\n([\s\S]*?)```/g)) examples.push(match[1] ?? '');
  }
  return examples;
}

describe('doc comment examples', () => {
  const found = sourceFiles(join(root, 'src')).flatMap((file) =>
    examplesOf(file).map((code, index) => ({ from: relative(root, file), index, code })),
  );

  it('exist on every function and class the root entry exports', async () => {
    const api = await import('graded-tools');
    const callable = Object.entries(api)
      .filter(([, value]) => typeof value === 'function')
      .map(([name]) => name);
    const sources = sourceFiles(join(root, 'src'))
      .map((file) => readFileSync(file, 'utf8'))
      .join('\n');
    const missing = callable.filter((name) => {
      const declaration = new RegExp(
        `/\\*\\*((?!\\*/)[\\s\\S])*@example((?!\\*/)[\\s\\S])*\\*/\\s*export (async )?(function|class) ${name}\\b`,
      );
      return !declaration.test(sources);
    });
    expect(missing).toEqual([]);
  });

  it('compile under the project’s strict settings', () => {
    rmSync(outDir, { recursive: true, force: true });
    mkdirSync(outDir, { recursive: true });
    const files = found.map(({ from, index, code }) => {
      const path = join(outDir, `${from.replaceAll('/', '_').replace(/\.ts$/, '')}_${index}.ts`);
      writeFileSync(path, `${code}\nexport {};\n`);
      return path;
    });
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
      .map(
        (d) =>
          `${d.file ? relative(outDir, d.file.fileName) : ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`,
      );
    expect(problems).toEqual([]);
  });
});

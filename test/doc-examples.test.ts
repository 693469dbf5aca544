import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compileSnippets } from './helpers/compile-snippets.js';

// Every `@example` in a doc comment under src/ is compiled against the sources with the project's
// strict settings, so the examples users copy cannot drift from the API.
const root = join(import.meta.dirname, '..');

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
    const snippets = found.map(({ from, index, code }) => ({ name: `${from}_${index}`, code }));
    expect(compileSnippets('doc-examples', snippets)).toEqual([]);
    // One tsc run over every example: tens of seconds on a loaded two-core machine.
  }, 180_000);
});

// Every name each public entry exports, values and types, as the TypeScript compiler sees the source:
// removing or renaming an exported type is an API decision too (test/index.test.ts guards the values
// of the root and store entries at run time; this guards the types of every entry).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import tsdown from '../tsdown.config.js';

const root = join(import.meta.dirname, '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  exports: Record<string, unknown>;
};
const built = (tsdown as { entry: Record<string, string> }).entry;
const entries = Object.keys(pkg.exports)
  .filter((subpath) => subpath !== './package.json')
  .map((subpath) => ({
    name: subpath === '.' ? 'graded-tools' : `graded-tools/${subpath.slice(2)}`,
    file: join(root, built[subpath === '.' ? 'index' : subpath.slice(2)] ?? 'missing'),
  }));

/** `type Name` or `value Name` for each export of `file`, sorted. */
function exportsOf(program: ts.Program, file: string): string[] {
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(file);
  const module = source === undefined ? undefined : checker.getSymbolAtLocation(source);
  if (module === undefined) throw new Error(`${file} is not a module the compiler read`);
  return checker
    .getExportsOfModule(module)
    .map((symbol) => {
      const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
      return `${target.flags & ts.SymbolFlags.Value ? 'value' : 'type'} ${symbol.name}`;
    })
    .sort();
}

describe('the exports of every public entry', () => {
  it('are exactly these names, values and types (changing one is an API decision)', async () => {
    const config = ts.getParsedCommandLineOfConfigFile(
      join(root, 'tsconfig.json'),
      {},
      {
        ...ts.sys,
        onUnRecoverableConfigFileDiagnostic: (d) => {
          throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
        },
      },
    );
    const program = ts.createProgram(
      entries.map((entry) => entry.file),
      { ...config?.options, noEmit: true },
    );
    const listing = entries
      .map(({ name, file }) => [`## ${name}`, ...exportsOf(program, file)].join('\n'))
      .join('\n\n');
    expect(listing).toContain('type ConfirmationStore');
    await expect(`${listing}\n`).toMatchFileSnapshot('./__snapshots__/exported-names.txt');
  }, 120_000);
});

import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

const root = join(import.meta.dirname, '..', '..');

/**
 * Writes each snippet as a module under `.tmp/<folder>` and type-checks them all against the sources
 * with the project's strict settings. Returns one line per problem; none means they all compile.
 */
export function compileSnippets(
  folder: string,
  snippets: readonly { name: string; code: string }[],
): string[] {
  const outDir = join(root, '.tmp', folder);
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  const files = snippets.map(({ name, code }) => {
    const path = join(outDir, `${name.replace(/[^\w-]/g, '_')}.ts`);
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
  return ts
    .getPreEmitDiagnostics(program)
    .filter((d) => d.file === undefined || d.file.fileName.startsWith(outDir))
    .map(
      (d) =>
        `${d.file ? relative(outDir, d.file.fileName) : ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`,
    );
}

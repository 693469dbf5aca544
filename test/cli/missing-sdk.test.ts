import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, ROOT } from '../support/ensure-built.js';

let hooksDir = '';

/** Runs the built bin in a child process where `@modelcontextprotocol/sdk` cannot be resolved. */
function runWithoutSdk(...args: string[]) {
  return spawnSync(
    process.execPath,
    ['--import', pathToFileURL(join(hooksDir, 'register.mjs')).href, `${ROOT}dist/cli.mjs`, ...args],
    { cwd: ROOT, encoding: 'utf8' },
  );
}

describe('the CLI without @modelcontextprotocol/sdk installed', () => {
  beforeAll(() => {
    ensureBuilt();
    mkdirSync(`${ROOT}.tmp`, { recursive: true });
    hooksDir = mkdtempSync(join(ROOT, '.tmp', 'no-sdk-'));
    // Fails resolution exactly as Node does for a package that is not installed.
    writeFileSync(
      join(hooksDir, 'hooks.mjs'),
      `export async function resolve(specifier, context, next) {
  if (specifier.startsWith('@modelcontextprotocol/sdk')) {
    const error = new Error(\`Cannot find package '@modelcontextprotocol/sdk' imported from \${context.parentURL}\`);
    error.code = 'ERR_MODULE_NOT_FOUND';
    throw error;
  }
  return next(specifier, context);
}
`,
    );
    writeFileSync(
      join(hooksDir, 'register.mjs'),
      `import { register } from 'node:module';\nregister('./hooks.mjs', import.meta.url);\n`,
    );
  });

  afterAll(() => rmSync(hooksDir, { recursive: true, force: true }));

  it('still prints --help and --version', () => {
    const help = runWithoutSdk('--help');
    expect(help.stderr).toBe('');
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('graded-tools mcp <registry-module>');
    const version = runWithoutSdk('--version');
    expect(version.status).toBe(0);
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
    const mcpHelp = runWithoutSdk('mcp', '--help');
    expect(mcpHelp.status).toBe(0);
    expect(mcpHelp.stderr).toContain('Usage: graded-tools mcp');
  });

  it('says what to install in one line, without a stack trace, and exits non-zero', () => {
    const result = runWithoutSdk('mcp', 'test/fixtures/named-registry-module.ts');
    expect(result.status).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr.trim().split('\n')).toEqual([
      expect.stringContaining('npm i @modelcontextprotocol/sdk'),
    ]);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });
});

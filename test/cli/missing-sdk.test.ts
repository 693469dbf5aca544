import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, ROOT } from '../support/ensure-built.js';

let hooksDir = '';

const BOTH = '@modelcontextprotocol/sdk,@modelcontextprotocol/server';

/** Runs the built bin in a child process where the `missing` packages cannot be resolved. */
function runWithoutSdk(...args: string[]) {
  return runWithout(BOTH, ...args);
}

function runWithout(missing: string, ...args: string[]) {
  return spawnSync(
    process.execPath,
    ['--import', pathToFileURL(join(hooksDir, 'register.mjs')).href, `${ROOT}dist/cli.mjs`, ...args],
    { cwd: ROOT, encoding: 'utf8', env: { ...process.env, MISSING_PACKAGES: missing } },
  );
}

describe('the CLI without an MCP SDK installed', () => {
  beforeAll(() => {
    ensureBuilt();
    mkdirSync(`${ROOT}.tmp`, { recursive: true });
    hooksDir = mkdtempSync(join(ROOT, '.tmp', 'no-sdk-'));
    // Fails resolution exactly as Node does for a package that is not installed.
    writeFileSync(
      join(hooksDir, 'hooks.mjs'),
      `const missing = (process.env.MISSING_PACKAGES ?? '').split(',').filter(Boolean);
export async function resolve(specifier, context, next) {
  const name = missing.find((prefix) => specifier === prefix || specifier.startsWith(prefix + '/'));
  if (name !== undefined) {
    const error = new Error(\`Cannot find package '\${name}' imported from \${context.parentURL}\`);
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

  it('serves on SDK v2 when only @modelcontextprotocol/server is installed', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [
        '--import',
        pathToFileURL(join(hooksDir, 'register.mjs')).href,
        '--import',
        'tsx',
        `${ROOT}dist/cli.mjs`,
        'mcp',
        'test/fixtures/named-registry-module.ts',
      ],
      cwd: ROOT,
      env: { ...(process.env as Record<string, string>), MISSING_PACKAGES: '@modelcontextprotocol/sdk' },
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    const client = new Client({ name: 'cli-v2-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(['session__fetch']);
      const refused = await client.callTool({ name: 'ticket__submit', arguments: {} });
      expect(refused.isError).toBe(true);
      await expect.poll(() => stderr).toMatch(/MCP on stdio \(@modelcontextprotocol\/server\) — 1 tools/);
    } finally {
      await client.close();
    }
  });
});

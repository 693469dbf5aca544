import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { ROOT } from '../support/ensure-built.js';

async function run(...args: string[]) {
  const out: string[] = [];
  const error: string[] = [];
  const code = await main(args, {
    cwd: ROOT,
    out: (line) => out.push(line),
    error: (line) => error.push(line),
  });
  return { code, out: out.join('\n'), error: error.join('\n') };
}

describe('graded-tools CLI', () => {
  it('prints the version and help', async () => {
    expect(await run('--version')).toMatchObject({ code: 0, out: expect.stringMatching(/^\d+\.\d+\.\d+/) });
    expect(await run('--help')).toMatchObject({
      code: 0,
      out: expect.stringContaining('graded-tools mcp <registry-module>'),
    });
    expect((await run()).code).toBe(2);
  });

  it.each([
    [['frobnicate'], /Unknown command "frobnicate"/],
    [['mcp'], /Give the registry module/],
    [['mcp', 'a.ts', 'b.ts'], /Unexpected: b\.ts/],
    [['mcp', 'a.ts', '--locale', 'fr'], /--locale is en or zh-CN/],
    [['mcp', 'a.ts', '--port', 'eighty'], /--port takes a whole number/],
    [['mcp', 'a.ts', '--nope'], /Unknown option '--nope'/],
  ])('refuses %j with exit code 2 and the usage', async (args, message) => {
    const result = await run(...args);
    expect(result.code).toBe(2);
    expect(result.error).toMatch(message);
    expect(result.out).toBe('');
  });

  it('exits 1 with the problem when the module has no registry', async () => {
    const result = await run('mcp', 'test/fixtures/no-registry-module.ts');
    expect(result.code).toBe(1);
    expect(result.error).toMatch(/exports no ToolRegistry/);
  });

  it('exits 1 on an adapter option out of range', async () => {
    const result = await run(
      'mcp',
      'test/fixtures/named-registry-module.ts',
      '--max-result-chars',
      '5',
      '--port',
      '0',
    );
    expect(result.code).toBe(1);
    expect(result.error).toMatch(/maxResultChars/);
  });
});

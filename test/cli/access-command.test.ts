import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { ensureBuilt, ROOT } from '../support/ensure-built.js';

let dir = '';

/** A registry module as an app ships it: plain ESM importing the built package by its name. */
function registryModule(extra = '', ticketGrade = 'write'): string {
  return `import { ToolRegistry } from 'graded-tools';
const object = { type: 'object', properties: { id: { type: 'string' } } };
const registry = new ToolRegistry()
  .register({ name: 'session.fetch', description: 'Fetch a conversation.', sideEffect: 'read', inputSchema: object, run: () => ({}) })
  .register({ name: 'kb.search', description: 'Search articles.', sideEffect: 'read', featureFlag: 'kb', inputSchema: object, run: () => [] })
  .register({ name: 'ticket.submit', description: 'Open a ticket.', sideEffect: '${ticketGrade}', inputSchema: object, run: () => ({}) })
  .register({ name: 'message.send', description: 'Email the customer.', sideEffect: 'send', scopes: ['desk'], inputSchema: object,
    prepare: (input) => input, deliver: () => 'sent' });
${extra}
export default registry;
`;
}

/** Runs the built bin in the fixtures' folder. */
function bin(...args: string[]) {
  const run = spawnSync(process.execPath, [join(ROOT, 'dist', 'cli.mjs'), 'access', ...args], {
    cwd: dir,
    encoding: 'utf8',
  });
  return { code: run.status, out: run.stdout, error: run.stderr };
}

beforeAll(() => {
  ensureBuilt();
  mkdirSync(join(ROOT, '.tmp'), { recursive: true });
  // Inside the package, so `import 'graded-tools'` resolves to the built package by self-reference.
  dir = mkdtempSync(join(ROOT, '.tmp', 'access-'));
  writeFileSync(join(dir, 'registry.mjs'), registryModule());
  writeFileSync(
    join(dir, 'pr-adds-export.mjs'),
    registryModule(
      "registry.register({ name: 'kb.export', description: 'Export articles.', sideEffect: 'read', inputSchema: object, run: () => [] });",
    ),
  );
  writeFileSync(join(dir, 'pr-regrades-ticket.mjs'), registryModule('', 'read'));
  writeFileSync(join(dir, 'pr-removes-send.mjs'), registryModule("registry.unregister('message.send');"));
  writeFileSync(join(dir, 'noisy.mjs'), `console.log('connecting to the database…');\n${registryModule()}`);
  writeFileSync(join(dir, 'no-registry.mjs'), 'export const answer = 42;\n');
  writeFileSync(
    join(dir, 'fetches-urls.mjs'),
    registryModule(
      "registry.register({ name: 'web.fetch', description: 'Fetch a page.', sideEffect: 'read', inputSchema: { type: 'object', properties: { url: { type: 'string', format: 'uri' } } }, run: () => '' });",
    ),
  );
  writeFileSync(
    join(dir, 'needs-sdk.mjs'),
    `import OpenAI from '@example/not-installed-sdk';\n${registryModule()}`,
  );
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('graded-tools access (the built bin)', () => {
  it('prints who may reach what under the scope and flags, and why not', () => {
    const result = bin('registry.mjs', '--scope', 'desk', '--flag', 'kb');
    expect(result.code).toBe(0);
    expect(result.error).toBe('');
    const lines = result.out.trimEnd().split('\n');
    expect(lines[0]).toBe('scope: desk · flags: kb');
    expect(lines[1]?.split(/\s{2,}/)).toEqual(['tool', 'grade', 'person', 'plan', 'model']);
    const rows = lines.slice(3).map((line) => line.split(/\s{2,}/));
    expect(rows).toEqual([
      ['session.fetch', 'read', 'yes', 'yes', 'yes'],
      ['kb.search', 'read', 'yes', 'yes', 'yes'],
      ['ticket.submit', 'write', 'yes', 'yes', 'no: NOT_READ_ONLY'],
      ['message.send', 'send', 'confirm', 'no: SEND_REQUIRES_CONFIRM', 'no: NOT_READ_ONLY'],
    ]);

    const elsewhere = bin('registry.mjs', '--scope', 'billing');
    expect(elsewhere.code).toBe(0);
    expect(elsewhere.out).toMatch(
      /^kb\.search\s+read\s+no: FLAG_NOT_GRANTED\s+no: FLAG_NOT_GRANTED\s+no: FLAG_NOT_GRANTED$/m,
    );
    expect(elsewhere.out).toMatch(/^message\.send\s+send\s+no: SCOPE_MISMATCH/m);
  });

  it('prints the same report as JSON for machines, with the reasons in the chosen language', () => {
    const result = bin('registry.mjs', '--scope', 'desk', '--json', '--locale', 'zh-CN');
    expect(result.code).toBe(0);
    const report = JSON.parse(result.out);
    expect(report).toMatchObject({ scope: 'desk', grantedFlags: [] });
    expect(report.tools.map((row: { name: string }) => row.name)).toEqual([
      'session.fetch',
      'kb.search',
      'ticket.submit',
      'message.send',
    ]);
    expect(report.tools[1].model).toMatchObject({ allowed: false, code: 'FLAG_NOT_GRANTED' });
    expect(report.tools[1].model.reason).toMatch(/[\u4e00-\u9fff]/);
    expect(report.tools[3].person).toEqual({ allowed: true, requiresConfirm: true });
  });

  it('keeps what the module logs while loading out of the JSON on stdout', () => {
    const result = bin('noisy.mjs', '--json');
    expect(result.code).toBe(0);
    expect(() => JSON.parse(result.out)).not.toThrow();
    expect(result.error).toContain('connecting to the database…');
  });

  it('writes a snapshot identical to --json, and --check passes against it', () => {
    const written = bin('registry.mjs', '--scope', 'desk', '--flag', 'kb', '--write', 'access.json');
    expect(written.code).toBe(0);
    expect(written.error).toMatch(/wrote access\.json/);
    const snapshot = readFileSync(join(dir, 'access.json'), 'utf8');
    expect(snapshot).toBe(bin('registry.mjs', '--scope', 'desk', '--flag', 'kb', '--json').out);

    const checked = bin('registry.mjs', '--scope', 'desk', '--flag', 'kb', '--check', 'access.json');
    expect(checked.code).toBe(0);
    expect(checked.out).toMatch(/access matches access\.json/);
    // Reasons are worded per locale and are not what is compared.
    expect(
      bin('registry.mjs', '--scope', 'desk', '--flag', 'kb', '--locale', 'zh-CN', '--check', 'access.json')
        .code,
    ).toBe(0);
  });

  it('--check warns about a read that takes a URL without declaring egress (#24)', () => {
    expect(bin('fetches-urls.mjs', '--write', 'fetch.json').code).toBe(0);
    const checked = bin('fetches-urls.mjs', '--check', 'fetch.json');
    expect(checked.code).toBe(0);
    expect(checked.error).toMatch(/warning: Tool "web\.fetch" is a read whose input `url` takes a URL/);
    expect(bin('registry.mjs', '--write', 'plain.json').error).not.toMatch(/egress/);
  });

  it('fails a pull request that hands the model a new tool until the snapshot is updated on purpose', () => {
    bin('registry.mjs', '--scope', 'desk', '--flag', 'kb', '--write', 'access.json');
    const added = bin('pr-adds-export.mjs', '--scope', 'desk', '--flag', 'kb', '--check', 'access.json');
    expect(added.code).toBe(1);
    expect(added.out.split('\n')).toEqual([
      'graded-tools access: access differs from access.json (scope: desk · flags: kb):',
      'The model can now reach: kb.export.',
      '  + kb.export (read): person yes · plan yes · model yes',
      'If this change is intended, update the snapshot on purpose: graded-tools access pr-adds-export.mjs --scope desk --flag kb --write access.json',
      '',
    ]);

    const regraded = bin(
      'pr-regrades-ticket.mjs',
      '--scope',
      'desk',
      '--flag',
      'kb',
      '--check',
      'access.json',
    );
    expect(regraded.code).toBe(1);
    expect(regraded.out).toContain('The model can now reach: ticket.submit.');
    expect(regraded.out).toContain('  ~ ticket.submit: grade write → read');
    expect(regraded.out).toContain('  ~ ticket.submit: model no: NOT_READ_ONLY → yes');

    const removed = bin('pr-removes-send.mjs', '--scope', 'desk', '--flag', 'kb', '--check', 'access.json');
    expect(removed.code).toBe(1);
    expect(removed.out).not.toContain('The model can');
    expect(removed.out).toContain(
      '  - message.send (send): was person confirm · plan no: SEND_REQUIRES_CONFIRM · model no: NOT_READ_ONLY',
    );

    // Updating the snapshot is the deliberate step that makes the check pass again.
    expect(bin('pr-adds-export.mjs', '--scope', 'desk', '--flag', 'kb', '--write', 'access.json').code).toBe(
      0,
    );
    expect(bin('pr-adds-export.mjs', '--scope', 'desk', '--flag', 'kb', '--check', 'access.json').code).toBe(
      0,
    );
  });

  it('refuses, with exit code 2, a snapshot made for another context, a missing one or a broken one', () => {
    bin('registry.mjs', '--scope', 'desk', '--flag', 'kb', '--write', 'access.json');
    const other = bin('registry.mjs', '--scope', 'desk', '--check', 'access.json');
    expect(other.code).toBe(2);
    expect(other.error).toMatch(
      /access\.json was made for scope: desk · flags: kb, but this run asks for scope: desk · flags: \(none\)/,
    );
    const missing = bin('registry.mjs', '--check', 'nowhere.json');
    expect(missing.code).toBe(2);
    expect(missing.error).toMatch(
      /no snapshot at nowhere\.json; make it with: graded-tools access registry\.mjs --write nowhere\.json/,
    );
    writeFileSync(join(dir, 'broken.json'), '{"tools": [{"name": 1}], "grantedFlags": []}');
    const broken = bin('registry.mjs', '--check', 'broken.json');
    expect(broken.code).toBe(2);
    expect(broken.error).toMatch(/broken\.json cannot be compared: it is not an access report/);
  });

  it('says clearly, with exit code 2 and no stack trace, when the module has no registry or needs a missing SDK', () => {
    const none = bin('no-registry.mjs');
    expect(none.code).toBe(2);
    expect(none.error).toMatch(/no-registry\.mjs exports no ToolRegistry \(it exports: answer\)/);
    const sdk = bin('needs-sdk.mjs');
    expect(sdk.code).toBe(2);
    expect(sdk.out).toBe('');
    expect(sdk.error.trim().split('\n')).toEqual([
      'graded-tools access: needs-sdk.mjs needs @example/not-installed-sdk, which is not installed: run `npm i @example/not-installed-sdk`.',
    ]);
  });
});

describe('graded-tools access options', () => {
  async function run(...args: string[]) {
    const out: string[] = [];
    const error: string[] = [];
    const code = await main(['access', ...args], {
      cwd: ROOT,
      out: (line) => out.push(line),
      error: (line) => error.push(line),
    });
    return { code, out: out.join('\n'), error: error.join('\n') };
  }

  it.each([
    [[], /Give the registry module/],
    [['a.mjs', 'b.mjs'], /Unexpected: b\.mjs/],
    [['a.mjs', '--locale', 'fr'], /--locale is en or zh-CN/],
    [['a.mjs', '--json', '--check', 'access.json'], /Use one of --json, --write and --check/],
    [['a.mjs', '--nope'], /Unknown option '--nope'/],
  ])('refuses %j with exit code 2 and the usage', async (args, message) => {
    const result = await run(...args);
    expect(result.code).toBe(2);
    expect(result.error).toMatch(message);
    expect(result.error).toContain('Usage: graded-tools access');
  });

  it('prints its help, and is listed in the main help', async () => {
    expect(await run('--help')).toMatchObject({ code: 0, out: expect.stringContaining('--check <file>') });
    const out: string[] = [];
    await main(['--help'], { cwd: ROOT, out: (line) => out.push(line), error: () => {} });
    expect(out.join('\n')).toContain('access <registry-module>');
  });

  it("prints each tool's rules in words under its row, and as the reviewer's view in the JSON", async () => {
    const table = await run('test/fixtures/rules-desk-module.ts');
    expect(table.code).toBe(0);
    expect(table.out.split('\n').slice(3)).toEqual([
      'order.lookup   read   yes      yes                        yes',
      'refund.create  write  yes      yes                        no: NOT_READ_ONLY',
      "  rule big-refunds when input.amount > 1000 && !('finance' in flags): deny: Refunds over 1000 go through finance.",
      '  rule #2 when input.amount > 100: a person confirms first',
      'payout.send    send   confirm  no: SEND_REQUIRES_CONFIRM  no: NOT_READ_ONLY',
      '  rule four-eyes when input.amount > 500: 2 approvals from finance',
      'credit.grant   write  yes      yes                        no: NOT_READ_ONLY',
      '  rule daily-credit always: at most 1000 of input.amount per day per actor',
      'refund.send    send   confirm  no: SEND_REQUIRES_CONFIRM  no: NOT_READ_ONLY',
      '  rule daily-refunds always: at most 500 of input.amount per day per input.customer (counted on delivery: given back when not sent)',
    ]);

    const json = await run('test/fixtures/rules-desk-module.ts', '--json');
    const report = JSON.parse(json.out);
    expect(report.tools[0].rules).toEqual([]);
    expect(report.tools[2]).toMatchObject({
      name: 'payout.send',
      rules: [
        {
          name: 'four-eyes',
          mode: 'enforce',
          when: 'input.amount > 500',
          approvals: 2,
          approverFlags: ['finance'],
        },
      ],
    });
    expect(report.tools[3].rules).toEqual([
      {
        name: 'daily-credit',
        mode: 'enforce',
        limit: { sum: 'input.amount', max: 1000, per: 'day', by: 'actor' },
      },
    ]);
    expect(report.tools[4].rules).toEqual([
      {
        name: 'daily-refunds',
        mode: 'enforce',
        limit: { sum: 'input.amount', max: 500, per: 'day', by: 'input.customer', count: 'delivered' },
      },
    ]);
  });

  it('reads a TypeScript module through the same loader as mcp (the example support desk)', async () => {
    const result = await run(
      'test/fixtures/support-desk-module.ts',
      '--scope',
      'desk',
      '--flag',
      'kb',
      '--json',
    );
    expect(result.code).toBe(0);
    const report = JSON.parse(result.out);
    expect(
      report.tools
        .filter((row: { model: { allowed: boolean } }) => row.model.allowed)
        .map((row: { name: string }) => row.name),
    ).toEqual(['session.fetch', 'kb.search']);
  });
});

import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { ensureBuilt, ROOT } from '../support/ensure-built.js';

const MODULE = 'test/fixtures/rules-desk-module.ts';
let dir = '';

/** The cases a reviewer writes for the fixture's rules; every one holds. */
const CASES = [
  { name: 'a small refund runs', tool: 'refund.create', input: { amount: 50 }, expect: 'allow' },
  { tool: 'refund.create', input: { amount: 5000 }, ctx: { actor: 'ana' }, expect: 'deny' },
  {
    name: 'finance may refund more, once a person confirms',
    tool: 'refund.create',
    input: { amount: 5000 },
    ctx: { flags: { finance: true } },
    expect: 'confirm',
  },
  { tool: 'refund.create', input: { amount: 500 }, ctx: { caller: 'autonomous' }, expect: 'confirm' },
  {
    name: 'big payouts need two from finance',
    tool: 'payout.send',
    input: { amount: 800 },
    expect: 'confirm',
  },
  {
    name: 'the model never pays',
    tool: 'payout.send',
    input: { amount: 8 },
    ctx: { caller: 'model' },
    expect: 'deny',
  },
  {
    name: 'credit over the day',
    tool: 'credit.grant',
    input: { amount: 5000 },
    ctx: { actor: 'ana' },
    expect: 'limit',
  },
  {
    name: 'credit within the day',
    tool: 'credit.grant',
    input: { amount: 50 },
    ctx: { actor: 'ana' },
    expect: 'allow',
  },
  { tool: 'order.lookup', ctx: { caller: 'model', scope: 'desk' }, expect: 'allow' },
];

/** Writes `content` (JSON unless a string) to a file in the temporary folder; its path from ROOT. */
function casesFile(name: string, content: unknown): string {
  writeFileSync(join(dir, name), typeof content === 'string' ? content : JSON.stringify(content));
  return relative(ROOT, join(dir, name));
}

const run_ = (...args: string[]) => run(...args);

async function run(...args: string[]) {
  const out: string[] = [];
  const error: string[] = [];
  const code = await main(args, {
    cwd: ROOT,
    out: (line) => out.push(line),
    error: (line) => error.push(line),
  });
  return { code, out, error: error.join('\n') };
}

beforeAll(() => {
  mkdirSync(join(ROOT, '.tmp'), { recursive: true });
  dir = mkdtempSync(join(ROOT, '.tmp', 'rules-'));
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('graded-tools rules test', () => {
  it('prints ok for each case that holds and a summary, exit code 0', async () => {
    const result = await run('rules', 'test', MODULE, casesFile('pass.json', CASES));
    expect(result.error).toBe('');
    expect(result.out).toEqual([
      'ok    a small refund runs',
      'ok    #2 refund.create',
      'ok    finance may refund more, once a person confirms',
      'ok    #4 refund.create',
      'ok    big payouts need two from finance',
      'ok    the model never pays',
      'ok    credit over the day',
      'ok    credit within the day',
      'ok    #9 order.lookup',
      '9 cases: all passed.',
    ]);
    expect(result.code).toBe(0);
  });

  it('names each surprise with what was expected, what happened, the rule and the reason, exit code 1', async () => {
    const wrong = CASES.map((test, i) =>
      i === 1 ? { ...test, expect: 'allow' } : i === 4 ? { ...test, expect: 'allow' } : test,
    );
    const result = await run('rules', 'test', MODULE, casesFile('wrong.json', wrong));
    expect(result.code).toBe(1);
    expect(result.out.filter((line) => !line.startsWith('ok'))).toEqual([
      'FAIL  #2 refund.create: expected allow, got deny (rule big-refunds; RULE_DENIED: Tool "refund.create" refused this call: Refunds over 1000 go through finance.)',
      'FAIL  big payouts need two from finance: expected allow, got confirm (rule four-eyes; 2 approvals from finance)',
      '9 cases: 7 passed, 2 failed.',
    ]);
  });

  it('starts an agent run for a case and hands its rules the app context', async () => {
    const run = { request: 'Email ana@example.com the invoices', reads: [{ tool: 'inbox.read' }] };
    const cases = [
      {
        name: 'named by the person',
        tool: 'mail.send',
        input: { to: 'ana@example.com' },
        ctx: { run },
        expect: 'confirm',
      },
      {
        name: 'only in the inbox',
        tool: 'mail.send',
        input: { to: 'mallory@evil.test' },
        ctx: { run },
        expect: 'deny',
      },
      {
        name: 'trusted by the app',
        tool: 'mail.send',
        input: { to: 'li@example.com' },
        ctx: { run: { ...run, trusted: ['li@example.com'] } },
        expect: 'confirm',
      },
      {
        name: 'a known payee',
        tool: 'payout.send',
        input: { iban: 'GB33' },
        ctx: { context: { payees: ['GB33'] } },
        expect: 'confirm',
      },
      {
        name: 'an unknown payee',
        tool: 'payout.send',
        input: { iban: 'US13' },
        ctx: { context: { payees: ['GB33'] } },
        expect: 'deny',
      },
    ];
    const result = await run_(
      'rules',
      'test',
      'test/fixtures/rules-runs-module.ts',
      casesFile('runs.json', cases),
    );
    expect(result.error).toBe('');
    expect(result.out.at(-1)).toBe('5 cases: all passed.');
    expect(result.code).toBe(0);
    const broken = await run_(
      'rules',
      'test',
      'test/fixtures/rules-runs-module.ts',
      casesFile('runs-broken.json', [
        { tool: 'mail.send', ctx: { run: { request: 1, reads: 'x' } }, expect: 'deny' },
      ]),
    );
    expect(broken.code).toBe(2);
    expect(broken.error).toMatch(/ctx\.run\.request must be a string/);
  });

  it('explains a refusal by a gate or the input, which no rule decided', async () => {
    const result = await run(
      'rules',
      'test',
      MODULE,
      casesFile('gates.json', [
        { tool: 'refund.create', input: { amount: 'lots' }, expect: 'allow' },
        { tool: 'order.lookup', ctx: { caller: 'model' }, expect: 'deny' },
      ]),
    );
    expect(result.code).toBe(1);
    expect(result.out).toEqual([
      'FAIL  #1 refund.create: expected allow, got deny (INVALID_INPUT: The input for "refund.create" does not match its schema. Fix these and call again: - /amount: must be number)',
      'FAIL  #2 order.lookup: expected deny, got allow (no rule applied)',
      '2 cases: 0 passed, 2 failed.',
    ]);
  });

  it('refuses a cases file it cannot use, naming each case and what is wrong, exit code 2', async () => {
    const malformed = casesFile('malformed.json', [
      { tool: 'refund.create', input: {}, expect: 'allowed' },
      {
        name: 'typo',
        tool: 'refund.create',
        inputs: {},
        expect: 'deny',
        ctx: { caller: 'robot', flags: ['finance'] },
      },
      'refund.create',
      { input: {}, expect: 'deny', ctx: { user: 'ana' } },
    ]);
    const result = await run('rules', 'test', MODULE, malformed);
    expect(result.code).toBe(2);
    expect(result.out).toEqual([]);
    expect(result.error.split('\n')).toEqual([
      `graded-tools rules test: ${malformed} cannot be used:`,
      '  case #1: expect must be one of allow, deny, limit, confirm (got "allowed")',
      '  case #2 ("typo"): unknown key "inputs" (a case has name, tool, input, ctx, expect)',
      '  case #2 ("typo"): ctx.caller must be one of person, autonomous, plan, model (got "robot")',
      '  case #2 ("typo"): ctx.flags must be an object of booleans ({ "finance": true })',
      '  case #3: must be an object ({ name?, tool, input, ctx, expect })',
      '  case #4: tool must be the name of a tool',
      '  case #4: ctx has an unknown key "user" (it takes caller, actor, scope, flags, context, run)',
    ]);

    const notJson = await run('rules', 'test', MODULE, casesFile('not.json', '[{ "tool": '));
    expect(notJson.code).toBe(2);
    expect(notJson.error).toMatch(
      /^graded-tools rules test: \S+not\.json cannot be used: it is not JSON \(.+\)\.$/,
    );
    const notArray = await run('rules', 'test', MODULE, casesFile('object.json', { cases: CASES }));
    expect(notArray.code).toBe(2);
    expect(notArray.error).toMatch(
      /object\.json cannot be used: it must hold an array of cases: \[\{ name\?, tool, input, ctx, expect \}\]\.$/,
    );
    expect((await run('rules', 'test', MODULE, casesFile('empty.json', []))).error).toMatch(
      /empty\.json cannot be used: it holds no cases\.$/,
    );
    const missing = await run('rules', 'test', MODULE, 'nowhere.json');
    expect(missing).toMatchObject({
      code: 2,
      error: 'graded-tools rules test: there is no cases file at nowhere.json.',
    });
  });

  it('says what is wrong with the module as access does, exit code 2', async () => {
    const cases = casesFile('module.json', CASES);
    const none = await run('rules', 'test', 'test/fixtures/no-registry-module.ts', cases);
    expect(none.code).toBe(2);
    expect(none.error).toMatch(
      /^graded-tools rules test: test\/fixtures\/no-registry-module\.ts exports no ToolRegistry \(it exports: answer, helper\)/,
    );
    const missing = await run('rules', 'test', 'test/fixtures/nowhere.ts', cases);
    expect(missing.code).toBe(2);
    expect(missing.error).toMatch(/^graded-tools rules test: Could not import test\/fixtures\/nowhere\.ts: /);
    expect(missing.out).toEqual([]);
  });

  it.each([
    [['rules'], /Give a rules command: test\./],
    [['rules', 'run'], /Unknown rules command "run"/],
    [['rules', 'test'], /Give the registry module\./],
    [['rules', 'test', MODULE], /Give the cases file\./],
    [['rules', 'test', MODULE, 'a.json', 'b.json'], /Unexpected: b\.json/],
    [['rules', 'test', '--nope'], /Unknown option '--nope'/],
  ])('refuses %j with exit code 2 and the usage', async (args, message) => {
    const result = await run(...args);
    expect(result.code).toBe(2);
    expect(result.error).toMatch(message);
    expect(result.error).toContain('Usage: graded-tools rules test');
  });

  it('prints its help, and is listed in the main help', async () => {
    const help = await run('rules', 'test', '--help');
    expect(help.code).toBe(0);
    expect(help.out.join('\n')).toContain('expect   allow, deny, limit or confirm');
    expect((await run('--help')).out.join('\n')).toContain('rules test <registry-module> <cases.json>');
  });
});

describe('graded-tools rules test (the built bin)', () => {
  it('exits 0 when every case holds and 1 when one does not, for CI', () => {
    ensureBuilt();
    const bin = (cases: string) =>
      spawnSync(
        process.execPath,
        ['--import', 'tsx', join(ROOT, 'dist', 'cli.mjs'), 'rules', 'test', MODULE, cases],
        {
          cwd: ROOT,
          encoding: 'utf8',
        },
      );
    const passing = bin(casesFile('bin-pass.json', CASES));
    expect(passing.stderr).toBe('');
    expect(passing.stdout).toMatch(/^ok {4}a small refund runs\n[\s\S]*\n9 cases: all passed\.\n$/);
    expect(passing.status).toBe(0);
    const failing = bin(casesFile('bin-fail.json', [{ ...CASES[0], expect: 'deny' }]));
    expect(failing.stdout).toBe(
      'FAIL  a small refund runs: expected deny, got allow (no rule applied)\n1 case: 0 passed, 1 failed.\n',
    );
    expect(failing.status).toBe(1);
  });
});

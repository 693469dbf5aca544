import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { RuleCheck } from '../invoke/check-call.js';
import type { ToolRegistry } from '../registry.js';
import { describeThrown } from '../util/describe-thrown.js';
import type { CommandIo } from './command-io.js';
import {
  answerUnread,
  type Positional,
  REGISTRY_MODULE,
  readCommandLine,
  type Unread,
} from './command-line.js';
import { loadRegistry } from './load-registry.js';
import { type RuleCase, readCases } from './rule-cases.js';
import { RULES_USAGE } from './usage.js';

/** Where `graded-tools rules` writes: one line per case and the summary on `out`, problems on `error`. */
export interface RulesIo extends CommandIo {
  readonly out: (line: string) => void;
}

const PREFIX = 'graded-tools rules test:';

const SUBCOMMAND: Positional = {
  missing: 'Give a rules command: test.',
  refuse: (name) => (name === 'test' ? undefined : `Unknown rules command "${name}".`),
};
const CASES_FILE: Positional = { missing: 'Give the cases file.' };

/** `rules test <module> <cases>` read, or why it could not be. */
function readRequest(
  args: readonly string[],
): { readonly modulePath: string; readonly casesPath: string } | Unread | 'help' {
  const line = readCommandLine(args, {}, [SUBCOMMAND, REGISTRY_MODULE, CASES_FILE]);
  if (line === 'help' || 'usage' in line) return line;
  const [, modulePath = '', casesPath = ''] = line.positionals;
  return { modulePath, casesPath };
}

/** The cases in the file at `path`, or the lines that say why they cannot be run. */
function casesIn(
  path: string,
  cwd: string,
):
  | { readonly ok: true; readonly cases: readonly RuleCase[] }
  | { readonly ok: false; readonly lines: string[] } {
  let text: string;
  try {
    text = readFileSync(resolve(cwd, path), 'utf8');
  } catch (error) {
    const missing = (error as { code?: unknown }).code === 'ENOENT';
    const line = missing
      ? `${PREFIX} there is no cases file at ${path}.`
      : `${PREFIX} could not read ${path}: ${describeThrown(error)}`;
    return { ok: false, lines: [line] };
  }
  const read = readCases(text);
  if (read.ok) return read;
  const { problems } = read;
  if (problems.length === 1)
    return { ok: false, lines: [`${PREFIX} ${path} cannot be used: ${problems[0]}.`] };
  return {
    ok: false,
    lines: [`${PREFIX} ${path} cannot be used:`, ...problems.map((problem) => `  ${problem}`)],
  };
}

/** Why `check` answered as it did, in one line: the rule, the code and reason, the approvals asked. */
function explain(check: RuleCheck): string {
  const parts: string[] = [];
  if (check.rule !== undefined) parts.push(`rule ${check.rule}`);
  if (check.reason !== undefined)
    parts.push(`${check.code ?? 'reason'}: ${check.reason.replace(/\s*\n\s*/g, ' ')}`);
  else if (check.code !== undefined) parts.push(check.code);
  if (check.outcome === 'confirm') {
    const flags = check.approverFlags.length > 0 ? ` from ${check.approverFlags.join(', ')}` : '';
    parts.push(`${check.approvals} approval${check.approvals === 1 ? '' : 's'}${flags}`);
  }
  return parts.length > 0 ? parts.join('; ') : 'no rule applied';
}

/** Runs one case: its result line and whether it passed. */
async function runCase(registry: ToolRegistry<unknown>, test: RuleCase): Promise<[string, boolean]> {
  let check: RuleCheck;
  try {
    const run = await startRun(registry, test);
    if (run !== undefined && 'problem' in run) return [`FAIL  ${test.label}: ${run.problem}`, false];
    const ctx = run === undefined ? test.ctx : { ...test.ctx, run: run.id };
    check = await registry.check(test.tool, test.input, ctx);
  } catch (error) {
    return [`FAIL  ${test.label}: expected ${test.expect}, but check threw: ${describeThrown(error)}`, false];
  }
  if (check.outcome === test.expect) return [`ok    ${test.label}`, true];
  return [`FAIL  ${test.label}: expected ${test.expect}, got ${check.outcome} (${explain(check)})`, false];
}

/**
 * The case's agent run, started and its reads replayed through the model's exit (the read tools run),
 * or why it could not be.
 */
async function startRun(
  registry: ToolRegistry<unknown>,
  test: RuleCase,
): Promise<{ id: string } | { problem: string } | undefined> {
  if (test.run === undefined) return undefined;
  const started = await registry.beginRun(test.run);
  if (!started.ok) return { problem: `ctx.run could not start: ${started.error}` };
  for (const read of test.run.reads) {
    const answer = await registry.invokeReadOnly(read.tool, read.input, { run: started.id });
    if (!answer.ok) return { problem: `ctx.run's read of ${read.tool} failed: ${answer.error}` };
  }
  return { id: started.id };
}

/**
 * `graded-tools rules test <module> <cases.json>`: loads the registry module (as `access` does), runs
 * each case through `registry.check` (nothing runs, nothing is counted) and prints `ok` or `FAIL` for
 * each, then a summary — the `opa test` of a registry's rules, for CI. Resolves with the exit code: 0
 * when every case holds, 1 when one does not, 2 when the command, the module or the file cannot be used.
 */
export async function runRulesCommand(args: readonly string[], io: RulesIo): Promise<number> {
  const request = readRequest(args);
  if (request === 'help' || 'usage' in request)
    return answerUnread(request, { command: 'rules', usage: RULES_USAGE, out: io.out, error: io.error });
  const read = casesIn(request.casesPath, io.cwd);
  if (!read.ok) {
    for (const line of read.lines) io.error(line);
    return 2;
  }
  const { cases } = read;
  // What the module logs while loading goes to stderr: stdout holds the results alone.
  io.reserveStdout?.();
  const loaded = await loadRegistry(request.modulePath, io.cwd);
  if (!loaded.ok) {
    io.error(`${PREFIX} ${loaded.problem}`);
    return 2;
  }
  const { registry } = loaded;
  if (typeof (registry as Partial<ToolRegistry<unknown>>).check !== 'function') {
    io.error(
      `${PREFIX} ${request.modulePath}'s registry has no check: it comes from a graded-tools too old for this command.`,
    );
    return 2;
  }
  let failed = 0;
  for (const test of cases) {
    const [line, passed] = await runCase(registry, test);
    io.out(line);
    if (!passed) failed += 1;
  }
  const total = cases.length;
  io.out(
    failed === 0
      ? `${total} case${total === 1 ? '' : 's'}: all passed.`
      : `${total} case${total === 1 ? '' : 's'}: ${total - failed} passed, ${failed} failed.`,
  );
  return failed === 0 ? 0 : 1;
}

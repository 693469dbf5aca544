import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Locale } from '../messages/index.js';
import type { AccessReport } from '../policy/access-report.js';
import { egressWarning } from '../policy/egress-warning.js';
import type { ToolRegistry } from '../registry.js';
import { describeThrown } from '../util/describe-thrown.js';
import { formatAccessWithRules, withRules } from './access-rules.js';
import { diffAccess, readSnapshot, reportContext, snapshotText } from './access-snapshot.js';
import type { CommandIo } from './command-io.js';
import { answerUnread, REGISTRY_MODULE, readCommandLine, type Unread } from './command-line.js';
import { CONTEXT_OPTIONS, readContextOptions } from './context-options.js';
import { loadRegistry } from './load-registry.js';
import { ACCESS_USAGE } from './usage.js';

/** What `graded-tools access` does with the report. */
type Action =
  | { readonly kind: 'print'; readonly json: boolean }
  | { readonly kind: 'write'; readonly file: string }
  | { readonly kind: 'check'; readonly file: string };

/** The command's options, checked, or the usage error to print. */
interface AccessRequest {
  readonly modulePath: string;
  readonly scope: string | undefined;
  readonly flags: readonly string[];
  readonly locale: Locale | undefined;
  readonly action: Action;
}

function readRequest(args: readonly string[]): AccessRequest | Unread | 'help' {
  const line = readCommandLine(
    args,
    {
      ...CONTEXT_OPTIONS,
      json: { type: 'boolean' },
      write: { type: 'string' },
      check: { type: 'string' },
    },
    [REGISTRY_MODULE],
  );
  if (line === 'help' || 'usage' in line) return line;
  const { values } = line;
  const [modulePath = ''] = line.positionals;
  const context = readContextOptions(values);
  if ('usage' in context) return context;
  const chosen = [values.json === true, values.write !== undefined, values.check !== undefined];
  if (chosen.filter(Boolean).length > 1) return { usage: 'Use one of --json, --write and --check.' };
  const action: Action =
    values.write !== undefined
      ? { kind: 'write', file: values.write }
      : values.check !== undefined
        ? { kind: 'check', file: values.check }
        : { kind: 'print', json: values.json === true };
  return { modulePath, ...context, action };
}

/** The registry's report under the request's context, or why it cannot give one. */
function reportOf(registry: ToolRegistry<unknown>, request: AccessRequest): AccessReport | string {
  const accessReport = (registry as Partial<ToolRegistry<unknown>>).accessReport;
  if (typeof accessReport !== 'function')
    return `${request.modulePath}'s registry has no accessReport: it comes from a graded-tools too old for this command.`;
  try {
    return accessReport.call(registry, {
      ...(request.scope === undefined ? {} : { scope: request.scope }),
      flags: Object.fromEntries(request.flags.map((flag) => [flag, true])),
      ...(request.locale === undefined ? {} : { locale: request.locale }),
    });
  } catch (error) {
    return `the registry could not report its access: ${describeThrown(error)}`;
  }
}

/** The same command with `--write <file>`: what the diff tells a person to run. */
function rerun(request: AccessRequest, file: string): string {
  const parts = ['graded-tools access', request.modulePath];
  if (request.scope !== undefined) parts.push('--scope', request.scope);
  for (const flag of request.flags) parts.push('--flag', flag);
  parts.push('--write', file);
  return parts.join(' ');
}

function check(report: AccessReport, request: AccessRequest, file: string, io: AccessIo): number {
  let text: string;
  try {
    text = readFileSync(resolve(io.cwd, file), 'utf8');
  } catch (error) {
    const missing = (error as { code?: unknown }).code === 'ENOENT';
    io.error(
      missing
        ? `graded-tools access: there is no snapshot at ${file}; make it with: ${rerun(request, file)}`
        : `graded-tools access: could not read ${file}: ${describeThrown(error)}`,
    );
    return 2;
  }
  const snapshot = readSnapshot(text);
  if (!snapshot.ok) {
    io.error(`graded-tools access: ${file} cannot be compared: ${snapshot.problem}.`);
    return 2;
  }
  const context = reportContext(report);
  if (snapshot.context !== context) {
    io.error(
      `graded-tools access: ${file} was made for ${snapshot.context}, but this run asks for ${context}. Give the same --scope and --flag options.`,
    );
    return 2;
  }
  const changes = diffAccess(snapshot.rows, report);
  if (changes.length === 0) {
    io.out(`graded-tools access: access matches ${file} (${context}, ${report.tools.length} tools).`);
    return 0;
  }
  io.out(`graded-tools access: access differs from ${file} (${context}):`);
  for (const line of changes) io.out(line);
  io.out(`If this change is intended, update the snapshot on purpose: ${rerun(request, file)}`);
  return 1;
}

/** Where `graded-tools access` writes: its report or JSON on `out`, problems on `error`. */
export interface AccessIo extends CommandIo {
  readonly out: (line: string) => void;
}

/**
 * `graded-tools access <module> …`: loads the registry module and prints its access report under
 * `--scope` and `--flag` (the same `registry.accessReport` a test or a page would read) with each
 * tool's rules, as a table or `--json`; `--write` stores it as a snapshot and `--check` compares
 * with one (who may reach what; the rules are printed, not compared). Resolves with the exit code: 0,
 * 1 when access differs from the snapshot, 2 when something cannot be used.
 */
export async function runAccessCommand(args: readonly string[], io: AccessIo): Promise<number> {
  const request = readRequest(args);
  if (request === 'help' || 'usage' in request)
    return answerUnread(request, { command: 'access', usage: ACCESS_USAGE, out: io.out, error: io.error });
  // What the module logs while loading must not end up in `--json > access.json`.
  io.reserveStdout?.();
  const loaded = await loadRegistry(request.modulePath, io.cwd);
  if (!loaded.ok) {
    io.error(`graded-tools access: ${loaded.problem}`);
    return 2;
  }
  const access = reportOf(loaded.registry, request);
  if (typeof access === 'string') {
    io.error(`graded-tools access: ${access}`);
    return 2;
  }
  const report = withRules(access, loaded.registry);
  const { action } = request;
  switch (action.kind) {
    case 'print':
      io.out(action.json ? snapshotText(report).trimEnd() : formatAccessWithRules(report));
      return 0;
    case 'write':
      try {
        writeFileSync(resolve(io.cwd, action.file), snapshotText(report));
      } catch (error) {
        io.error(`graded-tools access: could not write ${action.file}: ${describeThrown(error)}`);
        return 2;
      }
      io.error(
        `graded-tools access: wrote ${action.file} (${reportContext(report)}, ${report.tools.length} tools).`,
      );
      return 0;
    case 'check':
      for (const tool of loaded.registry.list()) {
        const warning = egressWarning(tool);
        if (warning !== undefined) io.error(`graded-tools access: warning: ${warning}`);
      }
      return check(report, request, action.file, io);
  }
}

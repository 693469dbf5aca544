import type { CheckContext } from '../registry-options.js';
import { isRecord } from '../util/is-record.js';

/** What a case expects `registry.check` to answer. */
export type Expected = 'allow' | 'deny' | 'limit' | 'confirm';

/** One case of a `graded-tools rules test` file, read and checked. */
export interface RuleCase {
  /** `name`, or `#n tool` (n from 1) for a case without one. */
  readonly label: string;
  readonly tool: string;
  readonly input: unknown;
  readonly ctx: CheckContext;
  readonly expect: Expected;
  /** An agent run to start for the case: its request and trusted values, then its reads replayed. */
  readonly run?: CaseRun;
}

/** A case's agent run: `beginRun({ request, trusted })`, then each read through the model's exit. */
export interface CaseRun {
  readonly request?: string;
  readonly trusted?: readonly string[] | Readonly<Record<string, readonly string[]>>;
  readonly reads: readonly { readonly tool: string; readonly input: unknown }[];
}

/** A cases file read: its cases, or every problem found in it (none of its cases run then). */
export type ReadCases =
  | { readonly ok: true; readonly cases: readonly RuleCase[] }
  | { readonly ok: false; readonly problems: readonly string[] };

const EXPECTED: readonly string[] = ['allow', 'deny', 'limit', 'confirm'] satisfies Expected[];
const CALLERS: readonly string[] = ['person', 'autonomous', 'plan', 'model'];
const CASE_KEYS = ['name', 'tool', 'input', 'ctx', 'expect'];
const CTX_KEYS = ['caller', 'actor', 'scope', 'flags', 'context', 'run'];
const RUN_KEYS = ['request', 'trusted', 'reads'];

const quote = (value: unknown) => JSON.stringify(value) ?? String(value);

/** The context of one case as `registry.check` takes it, or what is wrong with it. */
function readContext(ctx: unknown, problems: string[]): CheckContext {
  if (ctx === undefined) return {};
  if (!isRecord(ctx)) {
    problems.push('ctx must be an object ({ caller?, actor?, scope?, flags?, context?, run? })');
    return {};
  }
  for (const key of Object.keys(ctx)) {
    if (!CTX_KEYS.includes(key))
      problems.push(`ctx has an unknown key ${quote(key)} (it takes ${CTX_KEYS.join(', ')})`);
  }
  const { caller, actor, scope, flags, context } = ctx;
  if (caller !== undefined && !CALLERS.includes(caller as string))
    problems.push(`ctx.caller must be one of ${CALLERS.join(', ')} (got ${quote(caller)})`);
  if (actor !== undefined && typeof actor !== 'string') problems.push('ctx.actor must be a string');
  if (scope !== undefined && typeof scope !== 'string') problems.push('ctx.scope must be a string');
  if (flags !== undefined && (!isRecord(flags) || Object.values(flags).some((v) => typeof v !== 'boolean')))
    problems.push('ctx.flags must be an object of booleans ({ "finance": true })');
  return {
    ...(caller === undefined ? {} : { caller: caller as NonNullable<CheckContext['caller']> }),
    ...(typeof actor === 'string' ? { actor } : {}),
    ...(typeof scope === 'string' ? { scope } : {}),
    ...(isRecord(flags) ? { flags: flags as Record<string, boolean> } : {}),
    ...(context === undefined ? {} : { context }),
  };
}

/** A case's `ctx.run`, or what is wrong with it. */
function readRun(run: unknown, problems: string[]): CaseRun | undefined {
  if (run === undefined) return undefined;
  if (!isRecord(run)) {
    problems.push('ctx.run must be an object ({ request?, trusted?, reads? })');
    return undefined;
  }
  for (const key of Object.keys(run))
    if (!RUN_KEYS.includes(key))
      problems.push(`ctx.run has an unknown key ${quote(key)} (it takes ${RUN_KEYS.join(', ')})`);
  const { request, trusted, reads = [] } = run;
  if (request !== undefined && typeof request !== 'string') problems.push('ctx.run.request must be a string');
  if (trusted !== undefined && !Array.isArray(trusted) && !isRecord(trusted))
    problems.push('ctx.run.trusted must be a list of values or an object of named lists');
  const replayed: { tool: string; input: unknown }[] = [];
  if (!Array.isArray(reads)) problems.push('ctx.run.reads must be a list of { tool, input? }');
  else
    for (const read of reads) {
      if (!isRecord(read) || typeof read.tool !== 'string') {
        problems.push('ctx.run.reads must be a list of { tool, input? }');
        break;
      }
      replayed.push({ tool: read.tool, input: read.input ?? {} });
    }
  return {
    ...(typeof request === 'string' ? { request } : {}),
    ...(trusted === undefined ? {} : { trusted: trusted as CaseRun['trusted'] & object }),
    reads: replayed,
  };
}

/** Case `index` (from 0) read, or its problems added to `problems`, each naming the case. */
function readCase(value: unknown, index: number, problems: string[]): RuleCase | undefined {
  const number = `#${index + 1}`;
  if (!isRecord(value)) {
    problems.push(`case ${number}: must be an object ({ name?, tool, input, ctx, expect })`);
    return undefined;
  }
  const found: string[] = [];
  for (const key of Object.keys(value)) {
    if (!CASE_KEYS.includes(key))
      found.push(`unknown key ${quote(key)} (a case has ${CASE_KEYS.join(', ')})`);
  }
  const { name, tool, input, expect } = value;
  if (name !== undefined && (typeof name !== 'string' || name === ''))
    found.push('name must be a non-empty string');
  if (typeof tool !== 'string' || tool === '') found.push('tool must be the name of a tool');
  if (!EXPECTED.includes(expect as string))
    found.push(
      `expect must be one of ${EXPECTED.join(', ')} (got ${expect === undefined ? 'nothing' : quote(expect)})`,
    );
  const ctx = readContext(value.ctx, found);
  const run = readRun(isRecord(value.ctx) ? value.ctx.run : undefined, found);
  const label = typeof name === 'string' && name !== '' ? name : `${number} ${String(tool)}`;
  if (found.length > 0) {
    const named = typeof name === 'string' && name !== '' ? ` (${quote(name)})` : '';
    for (const problem of found) problems.push(`case ${number}${named}: ${problem}`);
    return undefined;
  }
  return {
    label,
    tool: tool as string,
    input: input ?? {},
    ctx,
    expect: expect as Expected,
    ...(run === undefined ? {} : { run }),
  };
}

/**
 * Reads the text of a cases file: a JSON array of `{ name?, tool, input?, ctx?, expect }`. `input`
 * defaults to `{}`, `ctx` to a person with no scope and no flags.
 */
export function readCases(text: string): ReadCases {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return {
      ok: false,
      problems: [`it is not JSON (${error instanceof Error ? error.message : String(error)})`],
    };
  }
  if (!Array.isArray(parsed))
    return { ok: false, problems: ['it must hold an array of cases: [{ name?, tool, input, ctx, expect }]'] };
  if (parsed.length === 0) return { ok: false, problems: ['it holds no cases'] };
  const problems: string[] = [];
  const cases: RuleCase[] = [];
  parsed.forEach((value, index) => {
    const read = readCase(value, index, problems);
    if (read !== undefined) cases.push(read);
  });
  return problems.length > 0 ? { ok: false, problems } : { ok: true, cases };
}

// One suite's tools in a graded-tools registry: AgentDojo's names and JSON Schemas, the grade from
// grades.ts, reads answering from the run's environment, writes and sends that only record they ran.
import { type ToolDefinition, ToolRegistry } from 'graded-tools';
import type { SuiteData, SuiteName } from './data.js';
import { GRADES } from './grades.js';
import { type BenchContext, RULES } from './rules.js';
import { bankingReads } from './tools/banking.js';
import type { Read } from './tools/environment-access.js';
import { slackReads } from './tools/slack.js';
import { travelReads } from './tools/travel.js';
import { workspaceReads } from './tools/workspace.js';

const READS: Readonly<Record<SuiteName, Readonly<Record<string, Read>>>> = {
  workspace: workspaceReads,
  travel: travelReads,
  banking: bankingReads,
  slack: slackReads,
};

/**
 * The registered name of an AgentDojo tool. Flat names (`send_email`) are accepted on main; until a
 * build has them this maps to `<suite>.<name>`, in this one place.
 */
export function registeredName(suite: SuiteName, name: string): string {
  return FLAT_NAMES ? name : `${suite}.${name}`;
}

const FLAT_NAMES = false;

/** Every write or send that ran (none should: nothing here is ever confirmed). */
export interface RanLedger {
  readonly ran: { readonly tool: string; readonly input: unknown }[];
}

export interface SuiteRegistryOptions {
  readonly suite: SuiteData;
  readonly withRules: boolean;
  readonly ledger: RanLedger;
}

export function createSuiteRegistry({
  suite,
  withRules,
  ledger,
}: SuiteRegistryOptions): ToolRegistry<BenchContext> {
  const registry = new ToolRegistry<BenchContext>();
  for (const spec of suite.tools) {
    const grade = GRADES[spec.name];
    if (grade === undefined) throw new Error(`grades.ts has no grade for ${suite.name}'s tool ${spec.name}`);
    const common = {
      name: registeredName(suite.name, spec.name),
      description: spec.description,
      inputSchema: spec.parameters,
      ...(grade.destinations === undefined ? {} : { destinations: grade.destinations }),
      ...(withRules && RULES[spec.name] !== undefined ? { rules: RULES[spec.name] } : {}),
    };
    registry.register(definition(suite.name, spec.name, common, grade.sideEffect, grade.egress, ledger));
  }
  return registry;
}

function definition(
  suite: SuiteName,
  name: string,
  common: Record<string, unknown> & { name: string; description: string; inputSchema: object },
  sideEffect: 'read' | 'write' | 'send',
  egress: true | undefined,
  ledger: RanLedger,
): ToolDefinition<BenchContext> {
  if (sideEffect === 'send') {
    return {
      ...common,
      sideEffect,
      prepare: (input: unknown) => input,
      deliver: (payload: unknown) => {
        ledger.ran.push({ tool: name, input: payload });
        return 'sent';
      },
    } as ToolDefinition<BenchContext>;
  }
  if (sideEffect === 'write') {
    return {
      ...common,
      sideEffect,
      run: (input: unknown) => {
        ledger.ran.push({ tool: name, input });
        return 'done';
      },
    } as ToolDefinition<BenchContext>;
  }
  const read = READS[suite][name];
  if (read === undefined) throw new Error(`no read for ${suite}'s tool ${name}`);
  return {
    ...common,
    sideEffect,
    ...(egress === undefined ? {} : { egress }),
    run: (input: Record<string, unknown>, ctx: { context: BenchContext }) =>
      read(ctx.context.environment, input),
  } as ToolDefinition<BenchContext>;
}

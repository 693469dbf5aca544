import { Environment } from '@marcbachmann/cel-js';
import type { RuleCall } from '../../rule.js';
import { compileClosures } from './cel-closures.js';

/** What CEL reads as `context` when the call gave none: an empty map, so `has(context.x)` answers. */
const NO_CONTEXT: Readonly<Record<string, never>> = Object.freeze({});

/** The longest CEL expression a rule may hold. */
export const MAX_EXPRESSION_LENGTH = 2_000;

/** A compiled CEL expression: evaluated against one call, or throwing what CEL throws. */
export interface CelProgram {
  readonly run: (call: RuleCall) => unknown;
  /** Compiled to closures (bounded by construction); otherwise cel-js walks it on every call. */
  readonly closures: boolean;
}

// One environment for every rule: the names a `when` may read, typed, and structural limits at parse.
let environment: Environment | undefined;
const celEnvironment = (): Environment =>
  (environment ??= new Environment({ limits: { maxAstNodes: 500, maxDepth: 32, maxListElements: 200 } })
    .registerVariable('input', 'map')
    .registerVariable('actor', 'string')
    .registerVariable('scope', 'string')
    .registerVariable('flags', 'map')
    .registerVariable('tool', 'string')
    .registerVariable('now', 'google.protobuf.Timestamp')
    .registerVariable('context', 'dyn')
    .registerVariable('origins', 'map'));

/**
 * Compiles and type-checks `source` as a CEL expression of one of the `types` (`'bool'` for `when`,
 * numbers for a `sum`), or says why not. `matches` is refused: cel-js runs it on JavaScript's
 * backtracking engine, and a rule must stay bounded whatever the input holds.
 */
export function compileCel(
  source: unknown,
  types: readonly string[],
  options: { readonly closures?: boolean } = {},
): CelProgram | { problem: string } {
  if (typeof source !== 'string' || source.trim() === '' || source.length > MAX_EXPRESSION_LENGTH)
    return {
      problem: `a CEL expression must be a non-empty string of at most ${MAX_EXPRESSION_LENGTH} characters`,
    };
  let parsed: ReturnType<Environment['parse']>;
  try {
    parsed = celEnvironment().parse(source);
  } catch (error) {
    return { problem: `it does not parse: ${firstLine(error)}` };
  }
  if (callsMatches(parsed.ast)) {
    return {
      problem:
        '`matches` is not allowed (it would run on a backtracking regular-expression engine): use startsWith, endsWith or contains, or a function rule',
    };
  }
  const checked = parsed.check();
  if (!checked.valid) return { problem: `it does not type-check: ${firstLine(checked.error)}` };
  const type = checked.type ?? 'dyn';
  if (type !== 'dyn' && !types.includes(type))
    return { problem: `it gives ${type}, where ${types.join(' or ')} is needed` };
  const slow = (call: RuleCall): unknown =>
    parsed({
      input: call.input,
      actor: call.actor ?? '',
      scope: call.scope ?? '',
      flags: call.flags,
      tool: call.tool,
      now: call.now,
      context: call.context ?? NO_CONTEXT,
      origins: call.origins,
    });
  // The fast path answers values only: whatever it will not answer, cel-js answers (errors included).
  const fast = options.closures === false ? undefined : compileClosures(parsed.ast);
  if (fast === undefined) return { run: slow, closures: false };
  const run = (call: RuleCall): unknown => {
    try {
      return fast(call);
    } catch {
      return slow(call);
    }
  };
  return { run, closures: true };
}

function callsMatches(node: unknown): boolean {
  if (Array.isArray(node)) return node.some(callsMatches);
  if (typeof node !== 'object' || node === null) return false;
  const { op, args } = node as { op?: unknown; args?: unknown };
  if ((op === 'call' || op === 'rcall') && Array.isArray(args) && args[0] === 'matches') return true;
  return callsMatches(args);
}

function firstLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return (text.split('\n')[0] ?? '').slice(0, 300);
}

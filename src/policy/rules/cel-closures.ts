import type { ASTNode } from '@marcbachmann/cel-js';
import type { RuleCall } from '../../rule.js';

/** A CEL expression compiled to plain closures: a value, or a throw whenever CEL might disagree. */
export type CelClosure = (call: RuleCall) => unknown;

/** What CEL knows of an operand before the call: a literal's or variable's type, or `dyn`. */
type StaticType = 'int' | 'double' | 'string' | 'bool' | 'null' | 'map' | 'dyn';

/** A value read from a call: JSON data, or a literal of the expression. */
const VARIABLES: Readonly<Record<string, (call: RuleCall) => unknown>> = {
  input: (call) => call.input,
  actor: (call) => call.actor ?? '',
  scope: (call) => call.scope ?? '',
  flags: (call) => call.flags,
  tool: (call) => call.tool,
};

/** Thrown where the closures will not answer; the rule then asks cel-js, which has the last word. */
class NotHere extends Error {}
const notHere = (): never => {
  throw new NotHere('not answered by the closures');
};

/**
 * The fast path of a rule's CEL: the common shape — variables, member access on maps, literals,
 * comparisons, `&&` `||` `!`, `in` on a map, `startsWith` `endsWith` `contains` — compiled to closures,
 * about a hundred times cheaper than walking the AST per call. It reads only the AST cel-js publishes
 * (`parse(…).ast`, typed `ASTNode`); anything else returns `undefined` here, and any surprise at run
 * time throws, so that cel-js evaluates that call: only values are answered here, never errors
 * (`test/policy/rules/cel-closures.test.ts` holds the two to the same answers).
 */
export function compileClosures(ast: ASTNode): CelClosure | undefined {
  try {
    return compile(ast);
  } catch {
    // Not answered here — or a node shaped otherwise than `ASTNode` says (another cel-js): cel-js answers.
    return undefined;
  }
}

/**
 * The static type of an operand, as cel-js's checker sees it: two operands whose types are both
 * known and differ (`500.5 != 0`, `actor == 1`) are an error there, so they are left to it.
 */
function staticType(node: ASTNode): StaticType {
  if (node.op === 'value') {
    const value = node.args;
    if (typeof value === 'bigint') return 'int';
    if (typeof value === 'number') return 'double';
    if (typeof value === 'string') return 'string';
    if (typeof value === 'boolean') return 'bool';
    if (value === null) return 'null';
    return 'dyn';
  }
  if (node.op === 'id') return node.args === 'input' || node.args === 'flags' ? 'map' : 'string';
  return 'dyn';
}

function compile(node: ASTNode): CelClosure {
  switch (node.op) {
    case 'value':
      return literal(node.args);
    case 'id':
      return (Object.hasOwn(VARIABLES, node.args) ? VARIABLES[node.args] : undefined) ?? notHere();
    case '.':
      return member(compile(node.args[0]), node.args[1]);
    case '[]': {
      const [target, field] = node.args;
      return field.op === 'value' && typeof field.args === 'string'
        ? member(compile(target), field.args)
        : notHere();
    }
    case '==':
    case '!=': {
      const [left, right] = pair(node.args);
      return node.op === '=='
        ? (call) => equal(left(call), right(call))
        : (call) => !equal(left(call), right(call));
    }
    case '<':
    case '<=':
    case '>':
    case '>=':
      return ordering(node.op, pair(node.args));
    case '&&': {
      const [left, right] = pair(node.args);
      return (call) => {
        const a = left(call);
        if (a === false) return false;
        const b = right(call);
        return a === true && typeof b === 'boolean' ? b : notHere();
      };
    }
    case '||': {
      const [left, right] = pair(node.args);
      return (call) => {
        const a = left(call);
        if (a === true) return true;
        const b = right(call);
        return a === false && typeof b === 'boolean' ? b : notHere();
      };
    }
    case '!_': {
      const operand = compile(node.args);
      return (call) => {
        const value = operand(call);
        return typeof value === 'boolean' ? !value : notHere();
      };
    }
    case 'in': {
      const [key, map] = pair(node.args);
      return (call) => {
        const k = key(call);
        const m = map(call);
        return typeof k === 'string' && isMap(m) ? Object.hasOwn(m, k) : notHere();
      };
    }
    case 'rcall':
      return method(node.args);
    default:
      return notHere();
  }
}

function literal(value: unknown): CelClosure {
  // An int literal is a bigint in cel-js; one past 2^53 is left to it.
  if (typeof value === 'bigint') {
    const number = Number(value);
    return Number.isSafeInteger(number) ? () => number : notHere();
  }
  if (typeof value === 'string' || typeof value === 'boolean' || value === null) return () => value;
  if (typeof value === 'number' && Number.isFinite(value)) return () => value;
  return notHere();
}

function member(target: CelClosure, key: string): CelClosure {
  if (typeof key !== 'string') return notHere();
  return (call) => {
    const map = target(call);
    return isMap(map) && Object.hasOwn(map, key) ? map[key] : notHere();
  };
}

function method([name, receiverNode, argumentNodes]: readonly [string, ASTNode, ASTNode[]]): CelClosure {
  const [argumentNode] = argumentNodes;
  if (argumentNode === undefined || argumentNodes.length !== 1) return notHere();
  const receiver = compile(receiverNode);
  const argument = compile(argumentNode);
  const run =
    name === 'startsWith'
      ? (s: string, a: string) => s.startsWith(a)
      : name === 'endsWith'
        ? (s: string, a: string) => s.endsWith(a)
        : name === 'contains'
          ? (s: string, a: string) => s.includes(a)
          : notHere();
  return (call) => {
    const s = receiver(call);
    const a = argument(call);
    return typeof s === 'string' && typeof a === 'string' ? run(s, a) : notHere();
  };
}

function ordering(op: '<' | '<=' | '>' | '>=', [left, right]: [CelClosure, CelClosure]): CelClosure {
  const compare =
    op === '<'
      ? (a: number | string, b: number | string) => a < b
      : op === '<='
        ? (a: number | string, b: number | string) => a <= b
        : op === '>'
          ? (a: number | string, b: number | string) => a > b
          : (a: number | string, b: number | string) => a >= b;
  return (call) => {
    const a = left(call);
    const b = right(call);
    if (typeof a === 'number' && typeof b === 'number') return compare(a, b);
    return typeof a === 'string' && typeof b === 'string' && isAscii(a) && isAscii(b)
      ? compare(a, b)
      : notHere();
  };
}

/** CEL's equality on scalars; lists and maps are left to cel-js. */
function equal(a: unknown, b: unknown): boolean {
  if (typeof a === 'object' && a !== null) return notHere();
  if (typeof b === 'object' && b !== null) return notHere();
  if (typeof a === 'number' && typeof b === 'number') return a === b;
  return a === b;
}

function pair([left, right]: readonly [ASTNode, ASTNode]): [CelClosure, CelClosure] {
  const a = staticType(left);
  const b = staticType(right);
  if (a !== 'dyn' && b !== 'dyn' && a !== b) return notHere();
  return [compile(left), compile(right)];
}

const isMap = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
// Code-point order and UTF-16 order agree below U+D800; ASCII is where there is no doubt.
const isAscii = (s: string): boolean => {
  for (let i = 0; i < s.length; i += 1) if (s.charCodeAt(i) > 0x7f) return false;
  return true;
};

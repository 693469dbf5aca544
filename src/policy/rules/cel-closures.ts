import type { RuleCall } from '../../rule.js';

/** A CEL expression compiled to plain closures: a value, or a throw whenever CEL might disagree. */
export type CelClosure = (call: RuleCall) => unknown;

type Node = { readonly op?: unknown; readonly args?: unknown };

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
 * about a hundred times cheaper than walking the AST per call. Anything else returns `undefined` here,
 * and any surprise at run time throws, so that cel-js evaluates that call: only values are answered
 * here, never errors (`test/policy/rules/cel-closures.test.ts` holds the two to the same answers).
 */
export function compileClosures(ast: unknown): CelClosure | undefined {
  try {
    return compile(ast as Node);
  } catch (error) {
    if (error instanceof NotHere) return undefined;
    throw error;
  }
}

/**
 * The static type of an operand, as cel-js's checker sees it: two operands whose types are both
 * known and differ (`500.5 != 0`, `actor == 1`) are an error there, so they are left to it.
 */
function staticType(node: Node): StaticType {
  const { op, args } = node;
  if (op === 'value') {
    if (typeof args === 'bigint') return 'int';
    if (typeof args === 'number') return 'double';
    if (typeof args === 'string') return 'string';
    if (typeof args === 'boolean') return 'bool';
    if (args === null) return 'null';
    return 'dyn';
  }
  if (op === 'id') return args === 'input' || args === 'flags' ? 'map' : 'string';
  return 'dyn';
}

function compile(node: Node): CelClosure {
  const { op, args } = node;
  switch (op) {
    case 'value':
      return literal(args);
    case 'id': {
      const read = typeof args === 'string' && Object.hasOwn(VARIABLES, args) ? VARIABLES[args] : undefined;
      return read ?? notHere();
    }
    case '.':
    case '[]':
      return member(args);
    case '==':
    case '!=': {
      const [left, right] = pair(args);
      return op === '=='
        ? (call) => equal(left(call), right(call))
        : (call) => !equal(left(call), right(call));
    }
    case '<':
    case '<=':
    case '>':
    case '>=':
      return ordering(op, pair(args));
    case '&&': {
      const [left, right] = pair(args);
      return (call) => {
        const a = left(call);
        if (a === false) return false;
        const b = right(call);
        return a === true && typeof b === 'boolean' ? b : notHere();
      };
    }
    case '||': {
      const [left, right] = pair(args);
      return (call) => {
        const a = left(call);
        if (a === true) return true;
        const b = right(call);
        return a === false && typeof b === 'boolean' ? b : notHere();
      };
    }
    case '!_': {
      const operand = compile(args as Node);
      return (call) => {
        const value = operand(call);
        return typeof value === 'boolean' ? !value : notHere();
      };
    }
    case 'in': {
      const [key, map] = pair(args);
      return (call) => {
        const k = key(call);
        const m = map(call);
        return typeof k === 'string' && isMap(m) ? Object.hasOwn(m, k) : notHere();
      };
    }
    case 'rcall':
      return method(args);
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

function member(args: unknown): CelClosure {
  if (!Array.isArray(args) || args.length !== 2) return notHere();
  const target = compile(args[0] as Node);
  const field = args[1];
  const key = typeof field === 'string' ? field : isStringLiteral(field) ? (field as Node).args : notHere();
  return (call) => {
    const map = target(call);
    return isMap(map) && Object.hasOwn(map, key as string) ? map[key as string] : notHere();
  };
}

function method(args: unknown): CelClosure {
  if (!Array.isArray(args) || args.length !== 3 || !Array.isArray(args[2]) || args[2].length !== 1)
    return notHere();
  const [name, receiverNode, [argumentNode]] = args as [unknown, Node, [Node]];
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

function pair(args: unknown): [CelClosure, CelClosure] {
  if (!Array.isArray(args) || args.length !== 2) return notHere();
  const [left, right] = args as [Node, Node];
  const a = staticType(left);
  const b = staticType(right);
  if (a !== 'dyn' && b !== 'dyn' && a !== b) return notHere();
  return [compile(left), compile(right)];
}

const isMap = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isStringLiteral = (node: unknown): boolean =>
  typeof node === 'object' &&
  node !== null &&
  (node as Node).op === 'value' &&
  typeof (node as Node).args === 'string';
// Code-point order and UTF-16 order agree below U+D800; ASCII is where there is no doubt.
const isAscii = (s: string): boolean => {
  for (let i = 0; i < s.length; i += 1) if (s.charCodeAt(i) > 0x7f) return false;
  return true;
};

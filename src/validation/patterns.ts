// Imported, not loaded on first use: `register` refuses a pattern RE2 cannot run, synchronously, on every
// runtime. It costs the root import 0.6 MB of heap and under 10 ms on Node (bench/import-cost.ts; the
// time is within run-to-run noise).
import { RE2JS } from 're2js';

/**
 * ECMAScript's `\s` (JSON Schema patterns are ECMAScript regexes); RE2's own `\s` is ASCII only. Inside
 * a character class, without the brackets.
 */
const ECMA_SPACE =
  '\\t\\n\\x0b\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff';
/** ECMAScript's `.` without the `s` flag; RE2's `.` stops only at `\n`. */
const ECMA_DOT = '[^\\n\\r\\u2028\\u2029]';

/** Rewrites the escapes whose meaning differs between ECMAScript and RE2, then RE2JS's own translation. */
function toRe2Syntax(pattern: string): string {
  let out = '';
  let inClass = false;
  for (let i = 0; i < pattern.length; i += 1) {
    const char = pattern[i];
    if (char === '\\') {
      const next = pattern[i + 1] ?? '';
      i += 1;
      if (next === 's') out += inClass ? ECMA_SPACE : `[${ECMA_SPACE}]`;
      else if (next === 'S' && !inClass) out += `[^${ECMA_SPACE}]`;
      else if (next === 'S') throw new Error('`\\S` inside a character class has no linear equivalent here');
      else out += `\\${next}`;
    } else if (char === '[' && !inClass) {
      inClass = true;
      out += char;
    } else if (char === ']' && inClass) {
      inClass = false;
      out += char;
    } else if (char === '.' && !inClass) {
      out += ECMA_DOT;
    } else {
      out += char;
    }
  }
  return RE2JS.translateRegExp(out);
}

/** `pattern` (ECMAScript syntax) compiled for RE2: linear in the input whatever the pattern. Throws what RE2 cannot run. */
export function compileRe2(pattern: string): RE2JS {
  return RE2JS.compile(toRe2Syntax(pattern));
}

/** Compiled patterns by source, shared by the register-time check and Ajv; a few hundred at most. */
const compiled = new Map<string, RE2JS | Error>();
const MAX_CACHED = 512;

function compileLinear(pattern: string): RE2JS | Error {
  let entry = compiled.get(pattern);
  if (entry === undefined) {
    try {
      entry = RE2JS.compile(toRe2Syntax(pattern));
    } catch (error) {
      entry = error instanceof Error ? error : new Error(String(error));
    }
    if (compiled.size >= MAX_CACHED) compiled.clear();
    compiled.set(pattern, entry);
  }
  return entry;
}

/**
 * True when V8's backtracking RegExp runs `pattern` in linear time too: anchored at the start, no
 * group or alternation (RE2 merges `(a|a)*` into `a*`, V8 does not), and one-pass by RE2's analysis,
 * so no character can be taken by two paths. re2js runs simple patterns ~30x slower than V8.
 */
function isLinearForBacktracking(pattern: string, regExp: RE2JS): boolean {
  // Escapes dropped first (an escaped `(` is a character), except `\p{…}`, whose tables may differ.
  const unescaped = pattern.replace(/\\[^pP]/g, '');
  return pattern.startsWith('^') && !/[()|]|\\[pP]|\[\^?\]/.test(unescaped) && regExp.re2().onepass !== null;
}

/** True when V8's own RegExp runs `pattern` in linear time: RE2 runs it, and the check above holds. */
export function runsLinearInV8(pattern: string): boolean {
  const regExp = compileLinear(pattern);
  return !(regExp instanceof Error) && isLinearForBacktracking(pattern, regExp);
}

/** Off only in the differential test, which checks both engines agree where the fast path is taken. */
export const nativeWhenLinear = { enabled: true };

/**
 * Ajv's `code.regExp` engine: RE2 semantics (linear time in the input, no backtracking) with
 * ECMAScript's `.` and `\s`; V8's own RegExp where that is linear too. Throws for a pattern RE2
 * cannot run; `register` refuses those first.
 */
export function linearRegExp(pattern: string, flags: string): { test(input: string): boolean } {
  const regExp = compileLinear(pattern);
  if (regExp instanceof Error) throw regExp;
  if (nativeWhenLinear.enabled && isLinearForBacktracking(pattern, regExp)) {
    try {
      return new RegExp(pattern, flags);
    } catch {
      // RE2 read it but V8 does not (an escape the `u` flag refuses): RE2 it is.
    }
  }
  return regExp;
}
// Ajv names the engine in standalone code it generates; this library never generates any.
linearRegExp.code = 'linearRegExp';

/** Keywords whose values are data (examples, defaults), never schemas: a `pattern` there is text. */
const DATA_KEYWORDS = new Set(['enum', 'const', 'default', 'examples']);

function describePattern(pattern: string, where: string): string | undefined {
  const regExp = compileLinear(pattern);
  if (!(regExp instanceof Error)) return undefined;
  try {
    new RegExp(pattern, 'u');
  } catch (error) {
    return `${where} ${JSON.stringify(pattern)} is not a valid regular expression (${error instanceof Error ? error.message : String(error)}).`;
  }
  return `${where} ${JSON.stringify(pattern)} cannot run in linear time (${regExp.message}). Patterns are checked with RE2 so that no input can make validation backtrack for seconds: rewrite it without backreferences or lookaround, or check it in the tool's run.`;
}

/**
 * The first `pattern` or `patternProperties` key in a JSON Schema that the linear engine cannot run,
 * described for a ToolDefinitionError; undefined when every one can. Run at register, so a schema
 * compiled lazily never fails at call time for its patterns. Each object is visited once, so a schema
 * that shares (or cycles through) sub-schemas costs its size.
 */
export function findUnsupportedPattern(schema: unknown, seen = new Set<object>()): string | undefined {
  if (typeof schema !== 'object' || schema === null || seen.has(schema)) return undefined;
  seen.add(schema);
  if (Array.isArray(schema)) {
    for (const item of schema) {
      const problem = findUnsupportedPattern(item, seen);
      if (problem !== undefined) return problem;
    }
    return undefined;
  }
  for (const [keyword, value] of Object.entries(schema)) {
    if (DATA_KEYWORDS.has(keyword)) continue;
    let problem: string | undefined;
    if (keyword === 'pattern' && typeof value === 'string') problem = describePattern(value, 'the pattern');
    if (keyword === 'patternProperties' && typeof value === 'object' && value !== null) {
      for (const key of Object.keys(value)) {
        problem ??= describePattern(key, 'the patternProperties key');
      }
    }
    problem ??= findUnsupportedPattern(value, seen);
    if (problem !== undefined) return problem;
  }
  return undefined;
}

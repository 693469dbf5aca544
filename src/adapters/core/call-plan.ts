import { isLegalWireName } from '../../policy/wire-name.js';

/**
 * The name a call gets when the model's name is not a legal wire name (empty, too long, a dot, a
 * space, markup …). It is legal for every provider and can never resolve to a tool (every wire name
 * holds `__`), so the model's exit answers it `UNKNOWN_TOOL` and lists the tools that exist.
 */
export const INVALID_TOOL_NAME = 'invalid_tool_name';

/** How a provider's call ids look, and how to make a new one. */
export interface CallIdRule {
  /** True for an id the provider accepts back. */
  readonly isLegal: (id: string) => boolean;
  /** Start of generated ids (followed by the call's index). */
  readonly prefix: string;
  /** True when the provider may send calls without ids (Gemini): those stay without one. */
  readonly optional?: boolean;
}

/** Printable ASCII without spaces: what OpenAI-compatible servers hand out and take back. */
export const PRINTABLE_ID_RULE: CallIdRule = {
  isLegal: (id) => /^[\x21-\x7e]{1,256}$/.test(id),
  prefix: 'call_',
};

/** One call as the model made it: its name and id, not yet trusted. */
export interface RawCall {
  readonly name: unknown;
  readonly id: unknown;
}

/** One call as the adapter answers and replays it: a legal name, a legal id unique in the turn. */
export interface PlannedCall {
  readonly name: string;
  readonly id: string | undefined;
}

/** The model's name if it is a legal wire name, else `INVALID_TOOL_NAME`. */
export function modelFacingName(name: unknown): string {
  return typeof name === 'string' && isLegalWireName(name) ? name : INVALID_TOOL_NAME;
}

/**
 * Decides the name and id each call is answered (and replayed) under. Pure and deterministic, so
 * the results and the sanitised assistant message always agree: the first legal use of an id keeps
 * it; a missing, illegal or repeated id gets `<prefix><index>` (with a suffix if that is taken).
 */
export function planCalls(calls: readonly RawCall[], rule: CallIdRule): PlannedCall[] {
  const taken = new Set<string>();
  const kept = calls.map(({ id }) => {
    if (typeof id !== 'string' || !rule.isLegal(id) || taken.has(id)) return undefined;
    taken.add(id);
    return id;
  });
  return calls.map((call, index) => {
    let id = kept[index];
    if (id === undefined && !(rule.optional === true && call.id === undefined)) {
      const base = `${rule.prefix}${index}`;
      id = base;
      for (let n = 2; taken.has(id); n += 1) id = `${base}_${n}`;
      taken.add(id);
    }
    return { name: modelFacingName(call.name), id };
  });
}

import type { ErrorCode } from '../result.js';
import type { CallerKind } from '../tool.js';
import type { Refusal } from './gates.js';

/**
 * What a refused caller is told. The model hears `UNKNOWN_TOOL` for a tool it may not call, exactly
 * as for a name that does not exist, so its list is all it can ever learn; the audit event keeps the
 * real reason. People and plans hear the reason itself, which says how to get access.
 */
export function toldCode(caller: CallerKind, refusal: Refusal): ErrorCode {
  return caller === 'model' ? 'UNKNOWN_TOOL' : refusal;
}

/** The name a caller knows a tool by: the wire name for the model, the internal name for the rest. */
export function shownName(
  tool: { readonly name: string; readonly wireName: string },
  caller: CallerKind,
): string {
  return caller === 'model' ? tool.wireName : tool.name;
}

/**
 * A name the caller gave that is safe to repeat back in a message: a name's shape, no control or
 * markup characters (a model-chosen name could otherwise inject text into what it reads next).
 */
export function echoableName(name: unknown): string | undefined {
  return typeof name === 'string' && /^[A-Za-z0-9_.-]{1,64}$/.test(name) ? name : undefined;
}

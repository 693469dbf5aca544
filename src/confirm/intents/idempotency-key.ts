import type { ConfirmationIdempotency } from '../../confirmation.js';
import { canonicalJson } from '../../util/canonical-json.js';
import { describeThrown } from '../../util/describe-thrown.js';
import { digestOf } from '../../util/sha256.js';

const MAX_KEY_LENGTH = 256;

/** Why an `idempotencyKey` cannot be used. */
export interface KeyProblem {
  readonly problem: string;
}

/**
 * Reads `idempotencyKey` (and the `actor` it is scoped to) once, from an options object already read
 * by `readProposal`: absent, or a non-empty single line of at most 256 characters.
 */
export function readIdempotencyKey(
  options: unknown,
): { readonly key: string; readonly actor: string | undefined } | KeyProblem | undefined {
  if (typeof options !== 'object' || options === null) return undefined;
  try {
    const { idempotencyKey: key, actor } = options as { idempotencyKey?: unknown; actor?: unknown };
    if (key === undefined) return undefined;
    if (typeof key !== 'string' || key === '')
      return { problem: '`idempotencyKey` must be a non-empty string' };
    if (key.length > MAX_KEY_LENGTH)
      return { problem: `\`idempotencyKey\` is longer than ${MAX_KEY_LENGTH} characters` };
    if (/[\p{Cc}\p{Cf}]/u.test(key))
      return { problem: '`idempotencyKey` holds control or invisible characters' };
    return { key, actor: typeof actor === 'string' ? actor : undefined };
  } catch (error) {
    return { problem: `the options could not be read: ${describeThrown(error).slice(0, 200)}` };
  }
}

/**
 * What a `propose` with a key stores: the key scoped to the tool (its internal name) and the actor, and
 * the intent — the tool and the input as asked (a raw JSON string read as the value it holds).
 */
export function proposalIdempotency(
  read: { readonly key: string; readonly actor: string | undefined },
  tool: string,
  input: unknown,
): ConfirmationIdempotency | KeyProblem {
  return idempotencyOf({ kind: 'propose', tool, actor: read.actor ?? null, key: read.key }, [
    { tool, input },
  ]);
}

/** What a `proposeBundle` with a key stores on its first step: the key scoped to the actor, the steps as intent. */
export function bundleIdempotency(
  read: { readonly key: string; readonly actor: string | undefined },
  steps: readonly { readonly tool: string; readonly input: unknown }[],
): ConfirmationIdempotency | KeyProblem {
  return idempotencyOf({ kind: 'bundle', actor: read.actor ?? null, key: read.key }, steps);
}

/** A tool's internal name from the name it was asked by; `undefined` when no tool answers to it. */
export type InternalName = (name: string) => string | undefined;

/**
 * `propose`'s key, read once: `undefined` without one (and for a name no tool answers to, which is
 * answered as without a key), why it cannot be used, or what the store holds it by (scoped to the
 * tool's internal name).
 */
export function proposeKeyOf(
  options: unknown,
  name: string,
  input: unknown,
  internalName: InternalName,
): ConfirmationIdempotency | KeyProblem | undefined {
  const read = readIdempotencyKey(options);
  if (read === undefined || 'problem' in read) return read;
  const tool = internalName(name);
  return tool === undefined ? undefined : proposalIdempotency(read, tool, input);
}

/**
 * `proposeBundle`'s key, read once from the options already read: the steps as its intent reads them,
 * each tool by its internal name. A step that cannot be read (a throwing getter) is a problem, never
 * thrown.
 */
export function bundleKeyOf(
  options: unknown,
  steps: unknown,
  internalName: InternalName,
): ConfirmationIdempotency | KeyProblem | undefined {
  const read = readIdempotencyKey(options);
  if (read === undefined || 'problem' in read) return read;
  try {
    return bundleIdempotency(read, stepsAsked(steps, internalName));
  } catch (error) {
    return { problem: `\`steps\` could not be read: ${describeThrown(error).slice(0, 200)}` };
  }
}

function stepsAsked(steps: unknown, internalName: InternalName): { tool: string; input: unknown }[] {
  if (!Array.isArray(steps)) return [];
  return steps.map((step: unknown) => {
    const { tool, input } = (typeof step === 'object' && step !== null ? step : {}) as {
      tool?: unknown;
      input?: unknown;
    };
    const name = typeof tool === 'string' ? tool : '';
    return { tool: internalName(name) ?? name, input };
  });
}

function idempotencyOf(
  scope: Readonly<Record<string, string | null>>,
  steps: readonly { readonly tool: string; readonly input: unknown }[],
): ConfirmationIdempotency | KeyProblem {
  try {
    const asked = steps.map(({ tool, input }) => ({ tool, input: inputValue(input) }));
    return { key: digestOf(canonicalJson(scope)), intent: digestOf(canonicalJson(asked)) };
  } catch (error) {
    const detail = describeThrown(error).slice(0, 200);
    return { problem: `an input proposed with \`idempotencyKey\` must be JSON data: ${detail}` };
  }
}

/** The input as the invoke path reads it: a JSON string is the value it holds. */
function inputValue(input: unknown): unknown {
  if (typeof input !== 'string') return input ?? null;
  try {
    return JSON.parse(input) as unknown;
  } catch {
    return input;
  }
}

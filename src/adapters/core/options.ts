import { ToolDefinitionError } from '../../errors/tool-definition-error.js';

/** What every adapter takes besides the registry and the context. Each option has a safe default. */
export interface AdapterOptions {
  /**
   * The longest text one tool result may send the model (default 20,000 characters, at least 200).
   * Longer results are cut and end with `…[truncated: N more characters]`.
   */
  readonly maxResultChars?: number;
  /** How many calls of one turn run at the same time (default 4; 1 runs them one by one). */
  readonly concurrency?: number;
  /**
   * The most calls of one turn that run (default 128). Later calls are answered `TOO_MANY_CALLS`
   * without running, so a model that emits thousands of calls cannot flood the app.
   */
  readonly maxCallsPerTurn?: number;
}

/** Adapter options with every default filled in. */
export interface ResolvedAdapterOptions {
  readonly maxResultChars: number;
  readonly concurrency: number;
  readonly maxCallsPerTurn: number;
}

/** The smallest `maxResultChars`: room for a short result plus the truncation marker. */
export const MIN_RESULT_CHARS = 200;

const DEFAULTS: ResolvedAdapterOptions = { maxResultChars: 20_000, concurrency: 4, maxCallsPerTurn: 128 };

function integerOption(options: object, key: string, fallback: number, min: number, max: number): number {
  const value = (options as Record<string, unknown>)[key];
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw new ToolDefinitionError(
      'INVALID_OPTION',
      '',
      `Adapter option \`${key}\` must be an integer from ${min} to ${max} (got ${JSON.stringify(value) ?? String(value)}).`,
    );
  }
  return value;
}

/**
 * Checks adapter options and fills in defaults. Throws `ToolDefinitionError` (`INVALID_OPTION`) for a
 * value out of range: options are configuration, never model output.
 */
export function resolveAdapterOptions(options: AdapterOptions = {}): ResolvedAdapterOptions {
  return {
    maxResultChars: integerOption(
      options,
      'maxResultChars',
      DEFAULTS.maxResultChars,
      MIN_RESULT_CHARS,
      Number.MAX_SAFE_INTEGER,
    ),
    concurrency: integerOption(options, 'concurrency', DEFAULTS.concurrency, 1, 1_024),
    maxCallsPerTurn: integerOption(options, 'maxCallsPerTurn', DEFAULTS.maxCallsPerTurn, 1, 100_000),
  };
}

/**
 * What the framework adapters take (Agents SDK, LangChain, Mastra): the framework owns the turn, so
 * there is no `maxCallsPerTurn`; its own step limit (`maxTurns`, `recursionLimit`, `maxSteps`) bounds a run.
 */
export type FrameworkAdapterOptions = Omit<AdapterOptions, 'maxCallsPerTurn'>;

import { describeThrown } from '../util/describe-thrown.js';
import { type RunBounds, RunMemory } from './run-memory.js';

/** What `registry.beginRun` is told: the person's words and the values the app vouches for. */
export interface RunOptions {
  /** The person's request, verbatim: a destination named here was chosen by the person. */
  readonly request?: string | undefined;
  /**
   * Values the app trusts (known payees, contacts, hosts): a list, or named lists
   * (`{ payees: ['DE89…'], contacts: ['ana@example.com'] }`).
   */
  readonly trusted?: readonly string[] | Readonly<Record<string, readonly string[]>> | undefined;
  /** How long the run is remembered (default: the registry's `runs.ttlMs`, at most 7 days). */
  readonly ttlMs?: number | undefined;
}

/** A run that started: the id calls pass as `ctx.run`, and when it is forgotten. */
export interface RunStarted {
  readonly ok: true;
  readonly id: string;
  /** After this (ISO 8601), calls naming the run are refused with `RUN_NOT_FOUND`. */
  readonly expiresAt: string;
}

/** How a registry keeps runs: how many at once, for how long, how much each remembers. */
export interface RunsOptions {
  /** Runs kept at once (default 10,000): past it the oldest is forgotten. */
  readonly maxRuns?: number;
  /** How long a run is kept after it starts (default 1 hour, at most 7 days). */
  readonly ttlMs?: number;
  /** Distinct values one run remembers of what the agent read (default 20,000). */
  readonly maxValuesPerRun?: number;
}

/** The settings `RunsOptions` are read into. */
export interface RunsSettings extends RunBounds {
  readonly maxRuns: number;
  readonly ttlMs: number;
}

const MAX_TTL_MS = 7 * 24 * 60 * 60_000;
const MAX_REQUEST_CHARS = 100_000;
const MAX_TRUSTED_VALUES = 10_000;
const MAX_TRUSTED_CHARS = 2_048;

export const DEFAULT_RUNS: RunsSettings = {
  maxRuns: 10_000,
  ttlMs: 60 * 60_000,
  maxValues: 20_000,
  maxTextChars: 1_000_000,
};

/** Reads `runs` of the registry's options, or says which part is wrong. */
export function readRunsOptions(raw: unknown): RunsSettings | string {
  if (raw === undefined) return DEFAULT_RUNS;
  if (typeof raw !== 'object' || raw === null) return '`runs` must be an object';
  const o = raw as Record<string, unknown>;
  const maxRuns = o.maxRuns ?? DEFAULT_RUNS.maxRuns;
  const ttlMs = o.ttlMs ?? DEFAULT_RUNS.ttlMs;
  const maxValues = o.maxValuesPerRun ?? DEFAULT_RUNS.maxValues;
  if (!isCount(maxRuns, 10_000_000)) return '`runs.maxRuns` must be a whole number from 1 to 10,000,000';
  if (!isTtl(ttlMs)) return '`runs.ttlMs` must be a positive number of milliseconds, at most 7 days';
  if (!isCount(maxValues, 10_000_000))
    return '`runs.maxValuesPerRun` must be a whole number from 1 to 10,000,000';
  return { maxRuns, ttlMs, maxValues, maxTextChars: DEFAULT_RUNS.maxTextChars };
}

/**
 * The registry's agent runs, in memory: started by `beginRun`, named by `ctx.run`, forgotten at their
 * expiry, by `endRun`, or — the oldest first — when `maxRuns` are kept. Memory stays bounded however
 * many runs a process starts.
 */
export class Runs {
  readonly #settings: RunsSettings;
  readonly #now: () => number;
  /** In start order, so the first entry is the oldest. */
  readonly #runs = new Map<string, RunMemory>();

  constructor(settings: RunsSettings, now: () => number) {
    this.#settings = settings;
    this.#now = now;
  }

  /** Starts a run, or says why its options cannot be read. */
  begin(raw: unknown): RunStarted | { readonly problem: string } {
    const start = readRunOptions(raw, this.#settings.ttlMs);
    if ('problem' in start) return start;
    const now = this.#now();
    this.#forgetExpired(now);
    while (this.#runs.size >= this.#settings.maxRuns) {
      const oldest = this.#runs.keys().next().value;
      if (oldest === undefined) break;
      this.#runs.delete(oldest);
    }
    const id = `run_${crypto.randomUUID().replaceAll('-', '')}`;
    const expiresAt = now + start.ttlMs;
    this.#runs.set(id, new RunMemory({ id, expiresAt, ...start }, this.#settings));
    return { ok: true, id, expiresAt: new Date(expiresAt).toISOString() };
  }

  /** The run named `id`, while it is kept. */
  get(id: string): RunMemory | undefined {
    const run = this.#runs.get(id);
    if (run === undefined) return undefined;
    if (run.expiresAt > this.#now()) return run;
    this.#runs.delete(id);
    return undefined;
  }

  /** Forgets a run; true when it was kept. */
  end(id: unknown): boolean {
    return typeof id === 'string' && this.#runs.delete(id);
  }

  #forgetExpired(now: number): void {
    // Runs expire in start order only when they share one ttl; the sweep stops at the first live one.
    for (const [id, run] of this.#runs) {
      if (run.expiresAt > now) break;
      this.#runs.delete(id);
    }
  }
}

function readRunOptions(
  raw: unknown,
  defaultTtlMs: number,
): { request: string; trusted: readonly string[]; ttlMs: number } | { problem: string } {
  if (raw === undefined || raw === null) return { request: '', trusted: [], ttlMs: defaultTtlMs };
  if (typeof raw !== 'object') return { problem: `the options must be an object (got ${typeof raw})` };
  try {
    const { request, trusted, ttlMs } = raw as Record<string, unknown>;
    if (request !== undefined && typeof request !== 'string')
      return { problem: '`request` must be a string' };
    if (typeof request === 'string' && request.length > MAX_REQUEST_CHARS)
      return { problem: `\`request\` is longer than ${MAX_REQUEST_CHARS} characters` };
    if (ttlMs !== undefined && !isTtl(ttlMs))
      return { problem: '`ttlMs` must be a positive number of milliseconds, at most 7 days' };
    const values = readTrusted(trusted);
    if (typeof values === 'string') return { problem: values };
    return { request: request ?? '', trusted: values, ttlMs: (ttlMs as number | undefined) ?? defaultTtlMs };
  } catch (error) {
    return { problem: `the options could not be read: ${describeThrown(error).slice(0, 200)}` };
  }
}

function readTrusted(raw: unknown): readonly string[] | string {
  if (raw === undefined) return [];
  const lists = Array.isArray(raw)
    ? [['trusted', raw] as const]
    : typeof raw === 'object' && raw !== null
      ? Object.entries(raw)
      : undefined;
  if (lists === undefined) return '`trusted` must be a list of values or an object of named lists';
  const values: string[] = [];
  for (const [name, list] of lists) {
    if (!Array.isArray(list)) return `\`trusted.${name}\` must be a list of values`;
    for (const value of list) {
      if (values.length >= MAX_TRUSTED_VALUES)
        return `\`trusted\` holds more than ${MAX_TRUSTED_VALUES} values`;
      const text = typeof value === 'number' && Number.isFinite(value) ? String(value) : value;
      if (typeof text !== 'string' || text.length > MAX_TRUSTED_CHARS)
        return `each trusted value must be a string of at most ${MAX_TRUSTED_CHARS} characters`;
      values.push(text);
    }
  }
  return values;
}

function isCount(value: unknown, max: number): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 1 && value <= max;
}

function isTtl(value: unknown): value is number {
  return typeof value === 'number' && value > 0 && value <= MAX_TTL_MS;
}

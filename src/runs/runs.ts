import type { RunStore } from '../stores/store.js';
import { describeThrown } from '../util/describe-thrown.js';
import { isPhrase } from './identifiers.js';
import { readResult } from './read-result.js';
import { RunMemory } from './run-memory.js';

/** What `registry.beginRun` is told: the person's words and the values the app vouches for. */
export interface RunOptions {
  /** The person's request, verbatim: a destination named here was chosen by the person. */
  readonly request?: string | undefined;
  /**
   * Values the app trusts (known payees, contacts, hosts): a list, or named lists
   * (`{ payees: ['DE89…'], contacts: ['ana@example.com'] }`). Each vouches for itself whole.
   */
  readonly trusted?: readonly string[] | Readonly<Record<string, readonly string[]>> | undefined;
  /** How long the run is remembered (default: the registry's `runs.ttlMs`, at most 7 days). */
  readonly ttlMs?: number | undefined;
  /**
   * The actor the run is for: a call naming the run with another `ctx.actor` (or none) is refused with
   * `RUN_NOT_FOUND`, as for a run that does not exist. Without it, any caller holding the id may use it.
   */
  readonly actor?: string | undefined;
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
  /** Runs kept at once by a store that keeps them in memory (default 10,000): past it the oldest is forgotten. */
  readonly maxRuns?: number;
  /** How long a run is kept after it starts (default 1 hour, at most 7 days). */
  readonly ttlMs?: number;
  /** Distinct values one run remembers of what the agent read (default 20,000). */
  readonly maxValuesPerRun?: number;
}

/** How much one run remembers of what the agent read. */
export interface RunBounds {
  /** Distinct (value, tool) entries remembered from tool results; past it, later reads are not remembered. */
  readonly maxValues: number;
  /** Characters of result text kept to find several-word values (names, titles) in. */
  readonly maxTextChars: number;
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
const MAX_LIST_NAME_CHARS = 128;
const MAX_ACTOR_CHARS = 256;

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
 * The registry's agent runs, kept by a `RunStore` (the registry's store, or one in this process): started
 * by `begin`, found by `find` for a call naming one (bound to its actor), fed by `remember` after each
 * read within it, forgotten at expiry, by `end`, or by the store's bounds.
 */
export class Runs {
  readonly #store: RunStore;
  readonly #settings: RunsSettings;
  readonly #now: () => number;

  constructor(store: RunStore, settings: RunsSettings, now: () => number) {
    this.#store = store;
    this.#settings = settings;
    this.#now = now;
  }

  /** Starts a run, or says why its options cannot be read. Rejects when the store does. */
  async begin(raw: unknown): Promise<RunStarted | { readonly problem: string }> {
    const start = readRunOptions(raw, this.#settings.ttlMs);
    if ('problem' in start) return start;
    const now = this.#now();
    const id = `run_${crypto.randomUUID().replaceAll('-', '')}`;
    const expiresAt = now + start.ttlMs;
    await this.#store.beginRun(
      {
        id,
        ...(start.actor === undefined ? {} : { actor: start.actor }),
        request: start.request,
        trusted: start.trusted,
        startedAt: now,
        expiresAt,
        full: false,
      },
      { maxRuns: this.#settings.maxRuns },
    );
    return { ok: true, id, expiresAt: new Date(expiresAt).toISOString() };
  }

  /**
   * The run `id` as `actor` may see it, in one read with what its agent read of `keys`: `undefined` when
   * it is unknown, ended, expired or bound to another actor — the same answer, so a hidden run looks
   * like a missing one. Rejects when the store does.
   */
  async find(id: string, actor: string | undefined, keys: readonly string[]): Promise<RunMemory | undefined> {
    const snapshot = await this.#store.readRun(id, {
      now: this.#now(),
      keys,
      texts: keys.some(isPhrase),
    });
    if (snapshot === undefined) return undefined;
    if (snapshot.run.actor !== undefined && snapshot.run.actor !== actor) return undefined;
    return new RunMemory(snapshot);
  }

  /**
   * Remembers what a read within `run` returned, in one write. Never rejects: a failing store leaves the
   * values unremembered, so they are later found nowhere — the cautious answer.
   */
  async remember(run: RunMemory, tool: string, result: unknown): Promise<void> {
    if (run.isFull) return;
    const bounds = this.#settings;
    try {
      await this.#store.rememberRead(run.id, readResult(tool, result, bounds), {
        now: this.#now(),
        maxValues: bounds.maxValues,
        maxTextChars: bounds.maxTextChars,
      });
    } catch {
      // Not remembered: what this read returned is found nowhere later, which asks a person more often.
    }
  }

  /** Forgets a run; true when it was kept. Rejects when the store does. */
  async end(id: unknown): Promise<boolean> {
    return typeof id === 'string' && (await this.#store.endRun(id));
  }
}

/** The options of `beginRun`, read once: the request, the trusted values by list, the ttl and the actor. */
export function readRunOptions(
  raw: unknown,
  defaultTtlMs: number,
):
  | {
      request: string;
      trusted: Readonly<Record<string, readonly string[]>>;
      ttlMs: number;
      actor: string | undefined;
    }
  | { problem: string } {
  if (raw === undefined || raw === null)
    return { request: '', trusted: {}, ttlMs: defaultTtlMs, actor: undefined };
  if (typeof raw !== 'object') return { problem: `the options must be an object (got ${typeof raw})` };
  try {
    const { request, trusted, ttlMs, actor } = raw as Record<string, unknown>;
    if (request !== undefined && typeof request !== 'string')
      return { problem: '`request` must be a string' };
    if (typeof request === 'string' && request.length > MAX_REQUEST_CHARS)
      return { problem: `\`request\` is longer than ${MAX_REQUEST_CHARS} characters` };
    if (ttlMs !== undefined && !isTtl(ttlMs))
      return { problem: '`ttlMs` must be a positive number of milliseconds, at most 7 days' };
    if (
      actor !== undefined &&
      (typeof actor !== 'string' ||
        actor === '' ||
        actor.length > MAX_ACTOR_CHARS ||
        actor.includes('\u0000'))
    )
      return {
        problem: `\`actor\` must be a non-empty string of at most ${MAX_ACTOR_CHARS} characters, without U+0000`,
      };
    const lists = readTrusted(trusted);
    if (typeof lists === 'string') return { problem: lists };
    return {
      request: request ?? '',
      trusted: lists,
      ttlMs: (ttlMs as number | undefined) ?? defaultTtlMs,
      actor,
    };
  } catch (error) {
    return { problem: `the options could not be read: ${describeThrown(error).slice(0, 200)}` };
  }
}

function readTrusted(raw: unknown): Record<string, readonly string[]> | string {
  const byList: Record<string, string[]> = Object.create(null);
  if (raw === undefined) return byList;
  const lists = Array.isArray(raw)
    ? [['trusted', raw] as const]
    : typeof raw === 'object' && raw !== null
      ? Object.entries(raw)
      : undefined;
  if (lists === undefined) return '`trusted` must be a list of values or an object of named lists';
  let count = 0;
  for (const [name, list] of lists) {
    if (!Array.isArray(list)) return `\`trusted.${name}\` must be a list of values`;
    if (name.length > MAX_LIST_NAME_CHARS)
      return `a trusted list's name is longer than ${MAX_LIST_NAME_CHARS} characters`;
    const values = byList[name] ?? [];
    byList[name] = values;
    for (const value of list) {
      if (count++ >= MAX_TRUSTED_VALUES) return `\`trusted\` holds more than ${MAX_TRUSTED_VALUES} values`;
      const text = typeof value === 'number' && Number.isFinite(value) ? String(value) : value;
      if (typeof text !== 'string' || text.length > MAX_TRUSTED_CHARS)
        return `each trusted value must be a string of at most ${MAX_TRUSTED_CHARS} characters`;
      values.push(text);
    }
  }
  return { ...byList };
}

function isCount(value: unknown, max: number): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 1 && value <= max;
}

function isTtl(value: unknown): value is number {
  return typeof value === 'number' && value > 0 && value <= MAX_TTL_MS;
}

// Small readers over a parsed environment (plain YAML values), so each read tool is a few lines.
import type { Environment } from '../environment.js';

export type Row = Readonly<Record<string, unknown>>;

/** The value at `path` (`'inbox.initial_emails'`), or `undefined`. */
export function at(environment: Environment, path: string): unknown {
  let value: unknown = environment;
  for (const key of path.split('.')) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Row)[key];
  }
  return value;
}

/** The list of objects at `path` (empty when there is none). */
export function rows(environment: Environment, path: string): Row[] {
  const value = at(environment, path);
  return Array.isArray(value)
    ? value.filter((item): item is Row => item !== null && typeof item === 'object')
    : [];
}

export function text(value: unknown): string {
  return typeof value === 'string' ? value : value === undefined || value === null ? '' : String(value);
}

export function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.map(text) : [];
}

/** Case-insensitive "contains", as AgentDojo's searches do. */
export function contains(haystack: unknown, needle: unknown): boolean {
  return text(haystack).toLowerCase().includes(text(needle).toLowerCase());
}

/** The date part of an ISO time (`2024-05-15T10:00` -> `2024-05-15`). */
export function day(time: unknown): string {
  return text(time).slice(0, 10);
}

/** A read that finds nothing fails as AgentDojo's does (a `ValueError` the model reads). */
export function nonEmpty<T>(found: T[], what: string): T[] {
  if (found.length === 0) throw new Error(`No ${what} found.`);
  return found;
}

/** The arguments as the tool received them. */
export type Args = Readonly<Record<string, unknown>>;

/** A read tool: the part of the environment AgentDojo's tool returns, filtered by its arguments. */
export type Read = (environment: Environment, args: Args) => unknown;

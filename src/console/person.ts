import { isRecord } from '../util/is-record.js';
import type { ApprovalsConsoleOptions, ConsolePerson } from './types.js';

/** Who is asking: a person, nobody signed in, or an `authenticate` that answered something unusable. */
export type Authenticated =
  | { readonly ok: true; readonly person: ConsolePerson }
  | { readonly ok: false; readonly reason: 'nobody' | 'malformed' };

/**
 * Asks the app's `authenticate` who sent `request`. Nobody (`undefined`, `null`) and a throw or a
 * rejection both mean nobody is signed in; an answer without a string `id` is the app's mistake. The
 * person is copied once into a frozen object, so a getter cannot name one approver to a check and
 * another to the record.
 */
export async function authenticatePerson(
  authenticate: ApprovalsConsoleOptions['authenticate'],
  request: Request,
): Promise<Authenticated> {
  let answer: unknown;
  try {
    answer = await authenticate(request);
  } catch {
    return { ok: false, reason: 'nobody' };
  }
  if (answer === undefined || answer === null) return { ok: false, reason: 'nobody' };
  try {
    return readPerson(answer);
  } catch {
    return { ok: false, reason: 'malformed' };
  }
}

function readPerson(answer: unknown): Authenticated {
  if (!isRecord(answer)) return { ok: false, reason: 'malformed' };
  const { id, name, flags, scope } = answer;
  if (typeof id !== 'string' || id === '') return { ok: false, reason: 'malformed' };
  const person: ConsolePerson = {
    id,
    ...(typeof name === 'string' ? { name } : {}),
    ...(isRecord(flags) ? { flags: copyFlags(flags) } : {}),
    ...(typeof scope === 'string' ? { scope } : {}),
  };
  return { ok: true, person: Object.freeze(person) };
}

function copyFlags(flags: Record<string, unknown>): Readonly<Record<string, boolean>> {
  const copy: Record<string, boolean> = Object.create(null);
  for (const [key, value] of Object.entries(flags)) if (typeof value === 'boolean') copy[key] = value;
  return Object.freeze(copy);
}

import type { Confirmation, ConfirmationStatus, Draft } from './types.js';

/** What every version of a record carries over unchanged; `actor` and `scope` only when set. */
export type ShellBase = Pick<
  Confirmation,
  'id' | 'tool' | 'input' | 'payload' | 'digest' | 'createdAt' | 'expiresAt'
> & { readonly actor?: string | undefined; readonly scope?: string | undefined };

/**
 * A record the registry builds, up to its history, with every field in the order records have always
 * had: one object literal per combination of the optional `actor` and `scope`, so all the fields fit
 * in the object itself (assigned one by one, most would spill into a separately grown array, and a
 * conditional spread is a runtime call). `result` and `error`, when a version has them, come after.
 */
export function recordShell(
  current: ShellBase,
  updatedAt: string,
  status: ConfirmationStatus,
  attempt: number,
  history: Confirmation['history'],
): Draft {
  const { id, tool, input, payload, digest, actor, scope, createdAt, expiresAt } = current;
  if (actor === undefined) {
    return scope === undefined
      ? { id, tool, input, payload, digest, createdAt, expiresAt, updatedAt, status, attempt, history }
      : {
          id,
          tool,
          input,
          payload,
          digest,
          scope,
          createdAt,
          expiresAt,
          updatedAt,
          status,
          attempt,
          history,
        };
  }
  return scope === undefined
    ? { id, tool, input, payload, digest, actor, createdAt, expiresAt, updatedAt, status, attempt, history }
    : {
        id,
        tool,
        input,
        payload,
        digest,
        actor,
        scope,
        createdAt,
        expiresAt,
        updatedAt,
        status,
        attempt,
        history,
      };
}

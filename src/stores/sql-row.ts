import {
  CONFIRMATION_STATUSES,
  type Confirmation,
  type ConfirmationHistoryEntry,
  type ConfirmationStatus,
} from '../confirm/types.js';

/** A confirmation as the SQL stores keep it: JSON as text, times as the driver returns them. */
export interface ConfirmationRow {
  readonly id: string;
  readonly tool: string;
  readonly status: string;
  readonly input: string;
  readonly payload: string;
  readonly digest: string;
  readonly actor: string | null;
  readonly scope: string | null;
  readonly created_at: unknown;
  readonly expires_at: unknown;
  readonly updated_at: unknown;
  readonly attempt: number | string;
  readonly result: string | null;
  readonly error: string | null;
  readonly history: string;
}

/** The columns in insert order, shared by both SQL stores. */
export const COLUMNS = [
  'id',
  'tool',
  'status',
  'input',
  'payload',
  'digest',
  'actor',
  'scope',
  'created_at',
  'expires_at',
  'updated_at',
  'attempt',
  'result',
  'error',
  'history',
] as const;

/** A row read back into a record; `toIso` turns the driver's time value into an ISO string. */
export function rowToConfirmation(row: ConfirmationRow, toIso: (time: unknown) => string): Confirmation {
  return {
    id: row.id,
    tool: row.tool,
    input: JSON.parse(row.input) as unknown,
    payload: JSON.parse(row.payload) as unknown,
    digest: row.digest,
    ...(row.actor === null ? {} : { actor: row.actor }),
    ...(row.scope === null ? {} : { scope: row.scope }),
    createdAt: toIso(row.created_at),
    expiresAt: toIso(row.expires_at),
    updatedAt: toIso(row.updated_at),
    status: row.status as ConfirmationStatus,
    attempt: Number(row.attempt),
    ...(row.result === null ? {} : { result: JSON.parse(row.result) as unknown }),
    ...(row.error === null ? {} : { error: row.error }),
    history: JSON.parse(row.history) as ConfirmationHistoryEntry[],
  };
}

/** A record's values in `COLUMNS` order; `fromIso` turns an ISO string into what the driver stores. */
export function confirmationValues(confirmation: Confirmation, fromIso: (iso: string) => unknown): unknown[] {
  return [
    confirmation.id,
    confirmation.tool,
    confirmation.status,
    JSON.stringify(confirmation.input ?? null),
    JSON.stringify(confirmation.payload ?? null),
    confirmation.digest,
    confirmation.actor ?? null,
    confirmation.scope ?? null,
    fromIso(confirmation.createdAt),
    fromIso(confirmation.expiresAt),
    fromIso(confirmation.updatedAt),
    confirmation.attempt,
    confirmation.result === undefined ? null : JSON.stringify(confirmation.result),
    confirmation.error ?? null,
    JSON.stringify(confirmation.history),
  ];
}

/**
 * A status as an SQL literal. Statuses are spliced into statements (they pick the statement, they are
 * not data), so anything but one of the seven is refused rather than quoted.
 */
export function statusLiteral(status: ConfirmationStatus): string {
  if (!CONFIRMATION_STATUSES.includes(status))
    throw new TypeError(`not a confirmation status: ${String(status)}`);
  return `'${status}'`;
}

/** A list of statuses as SQL literals. */
export function statusList(statuses: readonly ConfirmationStatus[]): string {
  return statuses.map(statusLiteral).join(', ');
}

/** The status CHECK both stores put on the table. */
export function statusCheck(statuses: readonly ConfirmationStatus[]): string {
  return `CHECK (status IN (${statusList(statuses)}))`;
}

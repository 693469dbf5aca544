import {
  CONFIRMATION_STATUSES,
  type Confirmation,
  type ConfirmationApproval,
  type ConfirmationHistoryEntry,
  type ConfirmationLink,
  type ConfirmationStatus,
  type CountedLimit,
} from '../../confirmation.js';
import { readOrigins, readValueOrigins } from '../../origins/read-origins.js';
import type { ApprovalRequirement } from '../../rule.js';
import { approvalsJson } from '../transitions.js';

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
  /**
   * What the confirmation was asked with — `note`, `links`, `ref`, `requires`, `origins`, `counted`
   * and a write's `sideEffect` — as JSON text (an object), or null when it has none of them. Only an
   * edit changes it (`requires`, `counted`), in the write that stores the edit.
   */
  readonly about: string | null;
  /** The approvals so far as `approvalsJson` writes them (a compare-and-set compares this text), or null. */
  readonly approvals: string | null;
  /** A held send's `deliverAt`, as the driver returns times; null when it was not held. */
  readonly deliver_at: unknown;
  /** The highest escalation step announced (`escalateDue`), or null; absent on a row not read back. */
  readonly escalated?: number | string | null;
  /** `Confirmation.idempotency.key` (unique among the kept rows), or null; absent on a row not read back. */
  readonly idempotency_key?: string | null;
  /** How many changes the row has had: every change is conditional on the one it read. */
  readonly revision?: number | string;
  /** `list` only: the row's tie-break between equal creation times, as text. */
  readonly list_order?: string | number;
}

/** The columns in insert order. */
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
  'about',
  'approvals',
  'deliver_at',
  'idempotency_key',
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
    ...(row.deliver_at == null ? {} : { deliverAt: toIso(row.deliver_at) }),
    status: row.status as ConfirmationStatus,
    attempt: Number(row.attempt),
    ...(row.result === null ? {} : { result: JSON.parse(row.result) as unknown }),
    ...(row.error === null ? {} : { error: row.error }),
    history: JSON.parse(row.history) as ConfirmationHistoryEntry[],
    ...(row.about == null ? {} : aboutOf(row.about, row.idempotency_key)),
    ...(row.approvals == null
      ? {}
      : { approvals: JSON.parse(row.approvals) as readonly ConfirmationApproval[] }),
  };
}

/**
 * The stored `about` object's fields, each only when it has the shape it was stored with (a row
 * written before `origins` existed simply has none).
 */
function aboutOf(
  text: string,
  key: string | null | undefined,
): Pick<
  Confirmation,
  | 'note'
  | 'links'
  | 'ref'
  | 'requires'
  | 'origins'
  | 'originValues'
  | 'originsOutsideRun'
  | 'sideEffect'
  | 'counted'
  | 'bundle'
  | 'idempotency'
  | 'alike'
> {
  const about = (JSON.parse(text) ?? {}) as {
    note?: unknown;
    links?: unknown;
    ref?: unknown;
    requires?: unknown;
    sideEffect?: unknown;
    origins?: unknown;
    originValues?: unknown;
    originsOutsideRun?: unknown;
    counted?: unknown;
    bundle?: unknown;
    intent?: unknown;
    alike?: unknown;
  };
  const origins = readOrigins(about.origins);
  const originValues = readValueOrigins(about.originValues);
  const counted = readCounted(about.counted);
  return {
    ...(counted.length === 0 ? {} : { counted }),
    ...(about.sideEffect === 'write' ? { sideEffect: 'write' as const } : {}),
    ...(typeof about.note === 'string' ? { note: about.note } : {}),
    ...(Array.isArray(about.links) ? { links: about.links as readonly ConfirmationLink[] } : {}),
    ...(typeof about.ref === 'string' ? { ref: about.ref } : {}),
    ...(typeof about.requires === 'object' && about.requires !== null
      ? { requires: about.requires as ApprovalRequirement }
      : {}),
    ...(origins === undefined ? {} : { origins }),
    ...(originValues === undefined ? {} : { originValues }),
    ...(about.originsOutsideRun === true ? { originsOutsideRun: true as const } : {}),
    ...(isBundle(about.bundle) ? { bundle: about.bundle } : {}),
    ...(typeof about.alike === 'string' ? { alike: { id: about.alike } } : {}),
    ...(typeof key === 'string' && typeof about.intent === 'string'
      ? { idempotency: { key, intent: about.intent } }
      : {}),
  };
}

function isBundle(value: unknown): value is NonNullable<Confirmation['bundle']> {
  if (typeof value !== 'object' || value === null) return false;
  const { id, index, size, digest } = value as Record<string, unknown>;
  return (
    typeof id === 'string' && typeof digest === 'string' && Number.isInteger(index) && Number.isInteger(size)
  );
}

/** The `counted` entries of an `about` object, each only when it has the shape it was stored with. */
export function readCounted(value: unknown): CountedLimit[] {
  if (!Array.isArray(value)) return [];
  return value.filter(
    (entry): entry is CountedLimit =>
      typeof entry === 'object' &&
      entry !== null &&
      typeof entry.rule === 'string' &&
      typeof entry.key === 'string' &&
      typeof entry.windowStart === 'number' &&
      typeof entry.windowEnd === 'number' &&
      typeof entry.amount === 'number',
  );
}

/** What a row counted on delivery, read from its `about` text. */
export function countedOfRow(about: string | null): CountedLimit[] {
  return about == null ? [] : readCounted((JSON.parse(about) as { counted?: unknown } | null)?.counted);
}

/**
 * `note`, `links`, `ref`, `requires`, `origins` (and per value, or not recorded outside a run),
 * `counted`, `bundle`, an idempotency key's `intent` and a write's `sideEffect` as the `about` column
 * holds them (the key itself has its own column, under a unique index).
 */
function aboutText(confirmation: Confirmation): string | null {
  const { note, links, ref, requires, origins, originValues, originsOutsideRun, counted, bundle } =
    confirmation;
  const intent = confirmation.idempotency?.intent;
  const alike = confirmation.alike?.id;
  const sideEffect = confirmation.sideEffect === 'write' ? 'write' : undefined;
  if (
    note === undefined &&
    links === undefined &&
    ref === undefined &&
    requires === undefined &&
    origins === undefined &&
    originValues === undefined &&
    originsOutsideRun === undefined &&
    counted === undefined &&
    sideEffect === undefined &&
    bundle === undefined &&
    intent === undefined &&
    alike === undefined
  )
    return null;
  return JSON.stringify({
    note,
    links,
    ref,
    requires,
    origins,
    originValues,
    originsOutsideRun,
    sideEffect,
    counted,
    bundle,
    intent,
    alike,
  });
}

/**
 * The `about` text after an edit: `requires` set (a stricter requirement) and `counted` set (what the
 * edited call counts on delivery) when given, the rest as it was.
 */
export function withEdit(
  about: string | null,
  edited: {
    readonly requires?: ApprovalRequirement | undefined;
    readonly counted?: readonly CountedLimit[] | undefined;
  },
): string | null {
  const { requires, counted } = edited;
  if (requires === undefined && counted === undefined) return about;
  const fields = about === null ? {} : (JSON.parse(about) as Record<string, unknown>);
  return JSON.stringify({
    ...fields,
    ...(requires === undefined ? {} : { requires }),
    ...(counted === undefined ? {} : { counted }),
  });
}

/** A record as the row the engine writes; `time` turns epoch ms into what the driver stores. */
export function confirmationRow(confirmation: Confirmation, time: (ms: number) => unknown): ConfirmationRow {
  return {
    id: confirmation.id,
    tool: confirmation.tool,
    status: confirmation.status,
    input: JSON.stringify(confirmation.input ?? null),
    payload: JSON.stringify(confirmation.payload ?? null),
    digest: confirmation.digest,
    actor: confirmation.actor ?? null,
    scope: confirmation.scope ?? null,
    created_at: time(Date.parse(confirmation.createdAt)),
    expires_at: time(Date.parse(confirmation.expiresAt)),
    updated_at: time(Date.parse(confirmation.updatedAt)),
    attempt: confirmation.attempt,
    result: confirmation.result === undefined ? null : JSON.stringify(confirmation.result),
    error: confirmation.error ?? null,
    history: JSON.stringify(confirmation.history),
    about: aboutText(confirmation),
    approvals: confirmation.approvals === undefined ? null : approvalsJson(confirmation.approvals),
    deliver_at: confirmation.deliverAt === undefined ? null : time(Date.parse(confirmation.deliverAt)),
    idempotency_key: confirmation.idempotency?.key ?? null,
  };
}

/** A row's values in `COLUMNS` order, for the insert. */
export function rowValues(row: ConfirmationRow): unknown[] {
  return COLUMNS.map((column) => row[column]);
}

/** The JSON text `history` with one entry's JSON text appended: what the SQL append computes. */
export function appendedHistory(history: string, entry: string): string {
  return `${history.slice(0, -1)}${history === '[]' ? '' : ','}${entry}]`;
}

/**
 * A status as an SQL literal. Statuses are spliced into statements (they pick the statement, they are
 * not data), so anything but one of `CONFIRMATION_STATUSES` is refused rather than quoted.
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

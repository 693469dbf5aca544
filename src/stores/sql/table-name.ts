/** The table confirmations go in when none is named. */
export const DEFAULT_TABLE = 'graded_tools_confirmations';

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

/**
 * A table name checked to be a plain identifier (letters, digits, `_`; at most 63 characters, the
 * PostgreSQL limit), optionally schema-qualified where allowed, and returned double-quoted. The name
 * is spliced into SQL — identifiers cannot be bound as parameters — so nothing else gets through.
 */
export function quoteTableName(name: string, allowSchema: boolean): string {
  const parts = typeof name === 'string' ? name.split('.') : [];
  const valid =
    parts.length >= 1 &&
    parts.length <= (allowSchema ? 2 : 1) &&
    parts.every((part) => IDENTIFIER.test(part));
  if (!valid) {
    throw new TypeError(
      `Invalid confirmation table name ${JSON.stringify(name)}: use letters, digits and _ (starting with a letter or _, at most 63 characters)${allowSchema ? ', optionally as schema.table' : ''}.`,
    );
  }
  return parts.map((part) => `"${part}"`).join('.');
}

/** A name for an index on the table, derived from the table's own (unqualified) name. */
export function indexName(table: string, suffix: string): string {
  const bare = table.split('.').pop() ?? table;
  // Cut so the index name still fits PostgreSQL's 63-character identifiers.
  return `"${bare.slice(0, 63 - suffix.length - 1)}_${suffix}"`;
}

/**
 * The table of sent-notice claims beside a confirmation table (`…_notices`, in the same schema): one
 * row per reminder an instance claimed, so instances sharing the store send each one once.
 */
export function noticesTableOf(table: string): string {
  return siblingTableOf(table, '_notices');
}

/**
 * The table of one-time approval links beside a confirmation table (`…_links`, in the same schema):
 * one row per link, keyed by the SHA-256 of its token (the token itself is never stored).
 */
export function linksTableOf(table: string): string {
  return siblingTableOf(table, '_links');
}

/**
 * The table of limit counters beside a confirmation table (`…_limits`, in the same schema): one row
 * per counter and window.
 */
export function limitsTableOf(table: string): string {
  return siblingTableOf(table, '_limits');
}

/** The table of approvers' passkeys beside a confirmation table (`…_passkeys`): one row per credential. */
export function passkeysTableOf(table: string): string {
  return siblingTableOf(table, '_passkeys');
}

/** The table of passkey challenges beside a confirmation table (`…_passkey_challenges`): one per nonce. */
export function passkeyChallengesTableOf(table: string): string {
  return siblingTableOf(table, '_passkey_challenges');
}

/** The table of agent runs beside a confirmation table (`…_runs`): one row per run. */
export function runsTableOf(table: string): string {
  return siblingTableOf(table, '_runs');
}

/** What each run's agent read (`…_run_values`): one row per value key and the tool that returned it. */
export function runValuesTableOf(table: string): string {
  return siblingTableOf(table, '_run_values');
}

/** Each run's result texts of several words (`…_run_texts`): one row per read that had any. */
export function runTextsTableOf(table: string): string {
  return siblingTableOf(table, '_run_texts');
}

/**
 * The table of in-batch markers beside a confirmation table (`…_marks`, D1 only): a batch that
 * changed a row leaves one, its records are conditioned on it, and the same batch deletes it.
 */
export function marksTableOf(table: string): string {
  return siblingTableOf(table, '_marks');
}

function siblingTableOf(table: string, suffix: string): string {
  const parts = table.split('.');
  const bare = (parts.pop() ?? table).replace(/^"|"$/g, '');
  return [...parts, `"${bare.slice(0, 63 - suffix.length)}${suffix}"`].join('.');
}

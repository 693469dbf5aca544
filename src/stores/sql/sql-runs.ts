import type { RunRecord, RunSnapshot, RunStore } from '../store.js';
import { CHANGED, type SqlDialect } from './dialect.js';
import { pruneInBatches } from './prune-batches.js';
import { runsTableOf, runTextsTableOf, runValuesTableOf } from './table-name.js';

/** A row of `readRun`'s one query: the run (`kind` 'run'), a key it read ('read') or a text ('text'). */
interface RunReadRow {
  readonly kind: 'run' | 'read' | 'text';
  readonly id: string | null;
  readonly actor: string | null;
  /** The request ('run') or a read's texts ('text'). */
  readonly body: string | null;
  readonly trusted: string | null;
  readonly started_at: unknown;
  readonly expires_at: unknown;
  readonly is_full: number | string | boolean | null;
  readonly value_key: string | null;
  readonly tool: string | null;
}

/**
 * The store's agent runs over a `SqlDialect`: a row per run, a row per (value key, tool) its agent
 * read and a row per read's texts, each carrying the run's expiry so the sweep prunes by one index.
 * The request and each read's texts are kept as JSON strings (lossless where a database's text is not).
 * `readRun` is one query (the run, only the asked keys, the texts when asked); `rememberRead` is one
 * transaction whose change admits the read only while the run is live, not full and within its
 * bounds, and whose records insert its keys (bound as one JSON parameter) and texts.
 */
export function sqlRuns(dialect: SqlDialect): RunStore {
  const { types, time } = dialect;
  const runs = runsTableOf(dialect.table);
  const values = runValuesTableOf(dialect.table);
  const texts = runTextsTableOf(dialect.table);
  const ms = (stored: unknown): number => Date.parse(dialect.isoOf(stored));

  const insert = dialect.prepare(
    `INSERT INTO ${runs} (id, actor, request, trusted, started_at, expires_at, is_full, text_chars)` +
      ` VALUES ($1, $2, ${dialect.relaxed('$3')}, $4, $5, $6, 0, 0)`,
    false,
  );
  const read = dialect.prepare(
    `SELECT 'run' AS kind, id, actor, request AS body, trusted, started_at, expires_at, is_full,` +
      ` NULL AS value_key, NULL AS tool, NULL AS read_id FROM ${runs} WHERE id = $1 AND expires_at > $2` +
      ` UNION ALL SELECT 'read', NULL, NULL, NULL, NULL, NULL, NULL, NULL, value_key, tool, NULL FROM ${values}` +
      ` WHERE run_id = $1 AND value_key IN (${dialect.jsonTextElements('$3')})` +
      ` UNION ALL SELECT 'text', NULL, NULL, body, NULL, NULL, NULL, NULL, NULL, tool, read_id FROM ${texts}` +
      // Texts in reading order: a read id starts with its time and its row's place in the read.
      ` WHERE run_id = $1 AND $4 = 1 ORDER BY read_id`,
    false,
  );
  // Admits the read: live, not full, and within both bounds (the entries counted as they stand).
  const admit =
    `UPDATE ${runs} SET text_chars = text_chars + $2 WHERE id = $1 AND expires_at > $3 AND is_full = 0` +
    ` AND text_chars + $2 <= $4 AND (SELECT count(*) FROM ${values} WHERE run_id = $1) + $5 <= $6`;
  const rememberKeys =
    `INSERT INTO ${values} (run_id, value_key, tool, expires_at)` +
    ` SELECT CAST($1 AS ${types.text}), e.*, CAST(${dialect.relaxed('$2')} AS ${types.text}), r.expires_at` +
    ` FROM ${runs} r, (${dialect.jsonTextElements('$3')}) e WHERE r.id = $1 AND ${CHANGED}` +
    ' ON CONFLICT DO NOTHING';
  const rememberTexts =
    `INSERT INTO ${texts} (run_id, read_id, tool, body, expires_at)` +
    ` SELECT CAST($1 AS ${types.text}), CAST($2 AS ${types.text}), CAST($3 AS ${types.text}),` +
    ` CAST($4 AS ${types.text}), r.expires_at FROM ${runs} r WHERE r.id = $1 AND ${CHANGED}`;
  const markFull = dialect.prepare(
    `UPDATE ${runs} SET is_full = 1 WHERE id = $1 AND expires_at > $2 AND is_full = 0`,
    false,
  );
  const pruneValues = dialect.prepare(
    `DELETE FROM ${values} WHERE (run_id, value_key, tool) IN` +
      ` (SELECT run_id, value_key, tool FROM ${values} WHERE expires_at <= $1 LIMIT $2)`,
    false,
  );
  const pruneTexts = dialect.prepare(
    `DELETE FROM ${texts} WHERE (run_id, read_id) IN` +
      ` (SELECT run_id, read_id FROM ${texts} WHERE expires_at <= $1 LIMIT $2)`,
    false,
  );
  const pruneRuns = dialect.prepare(
    `DELETE FROM ${runs} WHERE id IN (SELECT id FROM ${runs} WHERE expires_at <= $1 LIMIT $2)`,
    false,
  );

  return {
    async beginRun(run) {
      await insert([
        run.id,
        run.actor ?? null,
        JSON.stringify(run.request),
        JSON.stringify(run.trusted),
        time(run.startedAt),
        time(run.expiresAt),
      ]);
    },

    async readRun(id, lookup) {
      const keys = JSON.stringify(storable(lookup.keys));
      const { rows } = await read([id, time(lookup.now), keys, lookup.texts ? 1 : 0]);
      let run: RunRecord | undefined;
      const found: { key: string; tool: string }[] = [];
      const said: { tool: string; text: string }[] = [];
      for (const row of rows as unknown as readonly RunReadRow[]) {
        if (row.kind === 'run') run = recordOf(row, ms);
        else if (row.kind === 'read') found.push({ key: String(row.value_key), tool: String(row.tool) });
        else said.push({ tool: String(row.tool), text: JSON.parse(String(row.body)) as string });
      }
      if (run === undefined) return undefined;
      const snapshot: RunSnapshot = { run, read: found, texts: said };
      return snapshot;
    },

    async rememberRead(id, read, bounds) {
      const keys = storable(read.keys);
      const text = read.texts.join('\n');
      const records = [];
      if (keys.length > 0) records.push({ sql: rememberKeys, values: [id, read.tool, JSON.stringify(keys)] });
      const readId = `${String(bounds.now).padStart(15, '0')}:${crypto.randomUUID()}`;
      for (const [place, part] of textRows(read.texts).entries())
        records.push({
          sql: rememberTexts,
          values: [id, `${readId}:${String(place).padStart(2, '0')}`, read.tool, JSON.stringify(part)],
        });
      const now = time(bounds.now);
      const change = {
        sql: admit,
        values: [id, text.length, now, bounds.maxTextChars, keys.length, bounds.maxValues],
      };
      if ((await dialect.together(change, records, false)) > 0) return true;
      // Refused: gone, already full, or past a bound — then full from now on (a no-op otherwise).
      await markFull([id, now]);
      return false;
    },

    async endRun(id) {
      const forget = (table: string) => ({
        sql: `DELETE FROM ${table} WHERE run_id = $1 AND ${CHANGED}`,
        values: [id],
      });
      const ended = await dialect.together(
        { sql: `DELETE FROM ${runs} WHERE id = $1`, values: [id] },
        [forget(values), forget(texts)],
        false,
      );
      return ended > 0;
    },

    async pruneRuns({ now }) {
      const cutoff = time(now);
      await pruneInBatches(pruneValues, cutoff);
      await pruneInBatches(pruneTexts, cutoff);
      return pruneInBatches(pruneRuns, cutoff);
    },
  };
}

/**
 * The most characters of one texts row: at 4 bytes each still under hosted D1's 2,000,000 bytes a value
 * (local D1 does not enforce it, so no test here can show it).
 */
const MAX_ROW_CHARS = 250_000;

/** A read's texts as rows of whole texts joined by a line break, each at most `MAX_ROW_CHARS` long. */
function textRows(texts: readonly string[]): string[] {
  const rows: string[] = [];
  let row = '';
  for (const text of texts) {
    if (row !== '' && row.length + 1 + text.length > MAX_ROW_CHARS) {
      rows.push(row);
      row = '';
    }
    row = row === '' ? text : `${row}\n${text}`;
  }
  if (row !== '') rows.push(row);
  return rows;
}

/**
 * The distinct keys a table can hold and a JSON parameter can carry on every database: PostgreSQL's text
 * and its JSON functions refuse U+0000, so a key with one is neither kept nor asked — found nowhere,
 * the cautious answer. Texts and the request are kept as JSON strings, which escape it.
 */
function storable(keys: readonly string[]): string[] {
  return [...new Set(keys)].filter((key) => !key.includes('\u0000'));
}

function recordOf(row: RunReadRow, ms: (stored: unknown) => number): RunRecord {
  const trusted = JSON.parse(String(row.trusted)) as Record<string, readonly string[]>;
  return {
    id: String(row.id),
    ...(row.actor === null ? {} : { actor: row.actor }),
    request: JSON.parse(String(row.body)) as string,
    trusted,
    startedAt: ms(row.started_at),
    expiresAt: ms(row.expires_at),
    full: Number(row.is_full) === 1,
  };
}

/** The tables of runs beside a confirmation table, each statement safe to run again. */
export function runsSchema(
  dialect: SqlDialect,
  index: (table: string, suffix: string, columns: string) => string,
): string[] {
  const { types, table } = dialect;
  const runs = runsTableOf(table);
  const values = runValuesTableOf(table);
  const texts = runTextsTableOf(table);
  return [
    `CREATE TABLE IF NOT EXISTS ${runs} (
      id ${types.text} PRIMARY KEY NOT NULL,
      actor ${types.text},
      request ${types.text} NOT NULL,
      trusted ${types.text} NOT NULL,
      started_at ${types.time} NOT NULL,
      expires_at ${types.time} NOT NULL,
      is_full ${types.integer} NOT NULL DEFAULT 0,
      text_chars ${types.integer} NOT NULL DEFAULT 0
    )`,
    index(runs, 'runs_expires', 'expires_at'),
    `CREATE TABLE IF NOT EXISTS ${values} (
      run_id ${types.text} NOT NULL,
      value_key ${types.text} NOT NULL,
      tool ${types.text} NOT NULL,
      expires_at ${types.time} NOT NULL,
      PRIMARY KEY (run_id, value_key, tool)
    )`,
    index(values, 'run_values_expires', 'expires_at'),
    `CREATE TABLE IF NOT EXISTS ${texts} (
      run_id ${types.text} NOT NULL,
      read_id ${types.text} NOT NULL,
      tool ${types.text} NOT NULL,
      body ${types.text} NOT NULL,
      expires_at ${types.time} NOT NULL,
      PRIMARY KEY (run_id, read_id)
    )`,
    index(texts, 'run_texts_expires', 'expires_at'),
  ];
}

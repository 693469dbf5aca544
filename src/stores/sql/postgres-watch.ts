import type { Notification, Pool, PoolClient } from 'pg';
import { noticeListeners, type StoreWatcher, storeWatcher } from './notice-listeners.js';
import { indexName } from './table-name.js';

/** The first wait before listening again after a lost connection, doubled up to the last. */
const RETRY_FIRST_MS = 250;
const RETRY_MAX_MS = 30_000;

/**
 * The `NOTIFY` channel a table's changes are announced on, unquoted: its own (unqualified) name, which
 * is a checked identifier, plus `_changes`. Tables of one name in two schemas share it; a notice from
 * the other one costs a listener one read, nothing more.
 */
export function notifyChannel(tableName: string): string {
  return indexName(tableName, 'changes').slice(1, -1);
}

/**
 * What `migrate()` adds so every other process hears of a change: a trigger that sends the row's id on
 * the table's channel after each insert or update (`pg_notify` runs inside the writing transaction and
 * is delivered when it commits). One function serves every table (the channel is the trigger's
 * argument), so tables dropped later leave nothing behind; a lock of its own serialises replacing it.
 * Every statement may run again; run them inside the migration's transaction.
 *
 * Not for the move to `delivering`: PostgreSQL holds one lock per database from a notifying commit
 * until it is flushed, and a claim waits for the flush, so notifying claims serialises them (`npm run
 * bench`: 0.4× the round trips at 8 confirmers). The delivery's outcome, written next, is announced.
 */
export function notifyStatements(table: string, tableName: string): string[] {
  const schema = table.includes('.') ? `${table.slice(0, table.indexOf('.'))}.` : '';
  const fn = `${schema}"graded_tools_notify"`;
  const trigger = indexName(tableName, 'notify');
  return [
    "SELECT pg_advisory_xact_lock(hashtext('graded-tools:notify-function'))",
    `CREATE OR REPLACE FUNCTION ${fn}() RETURNS trigger LANGUAGE plpgsql AS $body$
BEGIN
  PERFORM pg_notify(TG_ARGV[0], NEW.id);
  RETURN NULL;
END
$body$`,
    `DO $do$ BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_trigger WHERE tgrelid = '${table}'::regclass AND tgname = '${trigger.slice(1, -1)}') THEN
    CREATE TRIGGER ${trigger} AFTER INSERT OR UPDATE ON ${table}
      FOR EACH ROW WHEN (NEW.status <> 'delivering') EXECUTE FUNCTION ${fn}('${notifyChannel(tableName)}');
  END IF;
END $do$`,
  ];
}

/**
 * PostgreSQL's `watch`: while anything listens, one of the pool's connections `LISTEN`s on the
 * table's channel and each notification becomes `{ id }`. A lost connection is taken again after a
 * growing wait; once it is back, listeners hear `{}` (read again: notices may have been missed).
 */
export function watchNotifications(pool: Pool, channel: string): StoreWatcher {
  let client: PoolClient | undefined;
  // Bumped whenever the current connection stops counting (lost or no longer wanted), so a late
  // connect or event from an older one is ignored.
  let generation = 0;
  let retryMs = RETRY_FIRST_MS;
  let retry: ReturnType<typeof setTimeout> | undefined;
  let missed = false;
  const released = new WeakSet<PoolClient>();
  // Destroyed rather than returned: a pooled connection must not go on listening.
  const destroy = (which: PoolClient) => {
    if (released.has(which)) return;
    released.add(which);
    which.release(true);
  };

  const listeners = noticeListeners({ onFirst: () => void listen(), onEmpty: stop });
  const watcher = storeWatcher(listeners);

  async function listen(): Promise<void> {
    const mine = generation;
    let next: PoolClient;
    try {
      next = await pool.connect();
    } catch {
      return lost(mine, undefined);
    }
    if (mine !== generation) return destroy(next);
    const onLost = () => lost(mine, next);
    next.on('error', onLost);
    next.on('end', onLost);
    next.on('notification', (message: Notification) => {
      if (mine !== generation || message.channel !== channel) return;
      listeners.notify(message.payload ? { id: message.payload } : {});
    });
    try {
      await next.query(`LISTEN "${channel}"`);
    } catch {
      return lost(mine, next);
    }
    if (mine !== generation) return destroy(next);
    client = next;
    retryMs = RETRY_FIRST_MS;
    if (missed) {
      missed = false;
      listeners.notify({});
    }
  }

  function lost(mine: number, which: PoolClient | undefined): void {
    if (mine !== generation) return;
    generation++;
    client = undefined;
    if (which !== undefined) destroy(which);
    missed = true;
    retry = setTimeout(() => {
      retry = undefined;
      if (!watcher.closed && listeners.size > 0) void listen();
    }, retryMs);
    retry.unref();
    retryMs = Math.min(retryMs * 2, RETRY_MAX_MS);
  }

  function stop(): void {
    generation++;
    clearTimeout(retry);
    retry = undefined;
    missed = false;
    retryMs = RETRY_FIRST_MS;
    if (client !== undefined) destroy(client);
    client = undefined;
  }

  return watcher;
}

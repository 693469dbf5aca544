import pg from 'pg';

/** Where the tests look for PostgreSQL: GRADED_TOOLS_PG_URL, or 127.0.0.1:5432/test as postgres or root. */
function candidates(): string[] {
  if (process.env.GRADED_TOOLS_PG_URL) return [process.env.GRADED_TOOLS_PG_URL];
  const users = [process.env.PGUSER, 'postgres', 'root'].filter((u): u is string => Boolean(u));
  return [...new Set(users)].map((user) => `postgres://${user}@127.0.0.1:5432/test`);
}

/** A reachable connection string, or why there is none. */
export type PostgresProbe = { readonly url: string } | { readonly url?: undefined; readonly reason: string };

let probed: Promise<PostgresProbe> | undefined;

/** Connects once per test file to find a usable PostgreSQL. */
export function probePostgres(): Promise<PostgresProbe> {
  probed ??= (async () => {
    const reasons: string[] = [];
    for (const url of candidates()) {
      const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3_000 });
      try {
        await client.connect();
        await client.query('SELECT 1');
        return { url };
      } catch (error) {
        reasons.push(
          `${url.replace(/\/\/[^@]*@/, '//…@')}: ${error instanceof Error ? error.message : String(error)}`,
        );
      } finally {
        await client.end().catch(() => {});
      }
    }
    return { reason: `PostgreSQL is unreachable (${reasons.join('; ')})` };
  })();
  return probed;
}

/**
 * The PostgreSQL tests' gate: CI must have the database (the tests fail there without it); elsewhere
 * they are skipped with the reason printed.
 */
export async function postgresOrSkip(what: string): Promise<string | undefined> {
  const probe = await probePostgres();
  if (probe.url !== undefined) return probe.url;
  if (process.env.CI) return undefined;
  console.warn(
    `[graded-tools] skipping ${what}: ${probe.reason}. Set GRADED_TOOLS_PG_URL or start PostgreSQL on 127.0.0.1:5432 (database "test").`,
  );
  return undefined;
}

/** A table name no other test file (or run) uses at the same time. */
export function uniqueTable(prefix: string): string {
  return `${prefix}_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
}

/** A store's table and the ones beside it (`…_notices`, `…_links`, `…_limits`, `…_audit`), as a `DROP TABLE` lists them. */
export function storeTables(table: string): string {
  return ['', '_notices', '_links', '_limits', '_audit', '_runs', '_run_values', '_run_texts']
    .map((suffix) => `${table}${suffix}`)
    .join(', ');
}

/** In CI, an unreachable PostgreSQL is a failing test, not a skip. */
export async function describePostgres(what: string, body: (url: string) => void): Promise<void> {
  const { describe, it } = await import('vitest');
  const url = await postgresOrSkip(what);
  if (url === undefined && process.env.CI) {
    const probe = await probePostgres();
    describe(what, () => {
      it('needs PostgreSQL in CI', () => {
        throw new Error(
          `${probe.url === undefined ? probe.reason : 'unreachable'}: CI must provide it (.ci/run starts it)`,
        );
      });
    });
    return;
  }
  describe.skipIf(url === undefined)(what, () => body(url ?? ''));
}

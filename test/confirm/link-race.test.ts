import { createPostgresStore } from 'graded-tools/postgres';
import pg from 'pg';
import { afterAll, expect, it } from 'vitest';
import { describePostgres, storeTables, uniqueTable } from '../helpers/postgres.js';
import { desk } from './setup.js';

const ROUNDS = 30;

await describePostgres('a one-time link spent in the same write as its decision: PostgreSQL', (url) => {
  const table = uniqueTable('gt_link_race');
  const pools = [1, 2].map(() => new pg.Pool({ connectionString: url, max: 4 }));
  afterAll(async () => {
    await pools[0]?.query(`DROP TABLE IF EXISTS ${storeTables(table)}`);
    for (const pool of pools) await pool.end();
  });

  it('of concurrent confirms through one link from two instances, every loser is told the link was used', async () => {
    const stores = pools.map((pool) => createPostgresStore({ pool, table }));
    await stores[0]?.migrate();
    const [a, b] = stores.map((store) => desk({ confirmations: store }));
    if (a === undefined || b === undefined) throw new Error('two instances');
    for (let round = 0; round < ROUNDS; round++) {
      const asked = await a.ask(`Round ${round}.`);
      const issued = await a.registry.approvalLinks.issue(asked.confirmationId, { approver: 'lead-2' });
      if (!issued.ok) throw new Error(issued.error);
      const uses = await Promise.all(
        [a, b, a, b, a, b].map(({ registry }) =>
          registry.confirm(asked.confirmationId, { link: issued.token }),
        ),
      );
      expect(uses.filter((use) => use.ok)).toHaveLength(1);
      // The link and the decision commit together: no loser can see the one without the other.
      for (const lost of uses.filter((use) => !use.ok))
        expect(lost, `round ${round}`).toMatchObject({ ok: false, code: 'LINK_REFUSED', reason: 'used' });
    }
  });
});

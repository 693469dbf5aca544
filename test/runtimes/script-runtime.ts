import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { quietEnv } from '../../scripts/runtimes.mjs';
import { postgresOrSkip } from '../helpers/postgres.js';
import { EXPECTED_ORIGINS, expectScenario } from './expect-scenario.js';
import { packedApp, removePackedApp } from './packed-app.js';
import { binaryOrReason } from './runtime-binary.js';

/**
 * The packed package on a runtime that runs a script (Bun, Deno), as a new user installs it: the core
 * with JSON Schema and zod, the console's Fetch handler, and propose → confirm → deliver exactly once
 * on each store that runtime has — its own SQLite (`sqlite`: bun:sqlite, node:sqlite) and PostgreSQL
 * through `pg`.
 */
export async function describeScriptRuntime({
  name,
  title,
  sqlite,
  args,
}: {
  readonly name: 'bun' | 'deno';
  readonly title: string;
  readonly sqlite: string;
  readonly args: (file: string) => readonly string[];
}): Promise<void> {
  const postgresUrl = await postgresOrSkip(`${title} on PostgreSQL`);
  const binary = binaryOrReason(name, title);
  describe.skipIf(binary === undefined)(title, () => {
    let app = '';
    beforeAll(() => {
      app = packedApp(name);
    });
    afterAll(() => removePackedApp(app));

    const run = async (store: string, target = '') => {
      const { stdout } = await promisify(execFile)(
        binary as string,
        [...args(join(app, 'run.mjs')), store, target],
        {
          cwd: app,
          env: { ...process.env, ...quietEnv, NO_COLOR: '1' },
          timeout: 60_000,
        },
      );
      return JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as Record<string, unknown>;
    };

    it('runs the scenario on the memory store', async () => {
      expectScenario(await run('memory'), name);
    });

    it(`runs the scenario on a SQLite file (${sqlite})`, async () => {
      expectScenario(await run('sqlite', join(app, 'confirmations.db')), name);
    });

    it(`remembers an agent run across two registries over one SQLite file (${sqlite})`, async () => {
      const result = await run('sqlite-runs', join(app, 'runs.db'));
      expect(result).toMatchObject({
        runtime: name,
        read: { read: 'ok' },
        ended: true,
        after: { read: 'RUN_NOT_FOUND' },
      });
      expect(result.origins).toEqual(EXPECTED_ORIGINS);
    });

    it(`a wait on one registry hears a confirm on another over one SQLite file (${sqlite})`, async () => {
      const result = await run('sqlite-waits', join(app, 'waits.db'));
      expect(result).toMatchObject({ runtime: name, confirmed: { status: 'delivered' } });
      expect(result.waited, JSON.stringify(result)).toMatchObject({ status: 'delivered' });
      // Well before its own timeout: a wait that heard nothing answers TIMEOUT at timeoutMs.
      expect((result.waited as { ms: number }).ms).toBeLessThan((result.timeoutMs as number) / 4);
    });

    it.skipIf(postgresUrl === undefined)('runs the scenario on PostgreSQL through pg', async () => {
      const result = await run('postgres', postgresUrl);
      expectScenario(result, name);
      expect(result.store).toBe('postgres');
    });
  });
}

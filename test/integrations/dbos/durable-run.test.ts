import { randomUUID } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DBOS, DBOSClient } from '@dbos-inc/dbos-sdk';
import { type ApprovalNotice, describeDecision, type Notifier, type RegistryEvent } from 'graded-tools';
import { DECISION_TOPIC, type DecisionMessage, dbosNotifier } from 'graded-tools/dbos';
import { createPostgresStore } from 'graded-tools/postgres';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { type Draft, deskRegistry, PROPOSED_EVENT, registerAskWorkflow } from '../../fixtures/dbos-desk.js';
import { describePostgres, uniqueTable } from '../../helpers/postgres.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { startWorkflowProcess, type WorkflowProcess } from './support/workflow-process.js';

/** `url` with its database replaced by `database` (user, host and query kept). */
function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

// The real @dbos-inc/dbos-sdk on the local PostgreSQL: a system database of its own per run, and the
// confirmations in a table of the `test` database. The test process is the person's side (and, for
// the first tests, the DBOS runtime too); the kill tests run the workflow in a child process.

await describePostgres('durable runs on DBOS', (url) => {
  const systemDb = `gt_dbos_${process.pid}_${randomUUID().slice(0, 8)}`;
  const systemDatabaseUrl = withDatabase(url, systemDb);
  const table = uniqueTable('gt_dbos');
  const store = { url, table };
  const closers: (() => Promise<void>)[] = [];
  const children: WorkflowProcess[] = [];
  let client: DBOSClient;
  const dir = tempDir('graded-tools-dbos-');

  // The in-process runtime's registry: the workflow proposes through it, the person decides through it,
  // and its channel is `dbosNotifier()` (DBOS.send of this process's runtime).
  const local = deskRegistry({ ...store, notify: [dbosNotifier()] });
  const ask = registerAskWorkflow(local.registry);
  const collect = DBOS.registerWorkflow(
    async () => {
      await DBOS.recv('go', { timeoutSeconds: 60 });
      const first = await DBOS.recv<DecisionMessage>(DECISION_TOPIC, { timeoutSeconds: 60 });
      // A second message would already be there: every send happened before 'go'.
      const second = await DBOS.recv<DecisionMessage>(DECISION_TOPIC, { timeoutSeconds: 1 });
      return { first, second };
    },
    { name: 'collectDecisions' },
  );

  beforeAll(async () => {
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${systemDb}`);
    await admin.end();
    const migrating = createPostgresStore({ connectionString: url, table });
    await migrating.migrate();
    await migrating.close();
    DBOS.setConfig({
      name: 'graded-tools-host',
      systemDatabaseUrl,
      executorID: `vitest-${process.pid}`,
      applicationVersion: 'graded-tools-host',
      logLevel: 'error',
    });
    await DBOS.launch();
    client = await DBOSClient.create({ systemDatabaseUrl });
  }, 120_000);

  // A test that failed half way leaves no workflow process behind for the next one.
  afterEach(async () => {
    for (const child of children) child.child.kill('SIGKILL');
    await Promise.all(children.splice(0).map((child) => child.exited));
  });

  afterAll(async () => {
    await client?.destroy();
    await DBOS.shutdown();
    await local.close();
    for (const close of closers) await close();
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`DROP TABLE IF EXISTS ${table}`);
    await admin.query(`DROP DATABASE IF EXISTS ${systemDb} WITH (FORCE)`);
    await admin.end();
    dir.remove();
  }, 120_000);

  /** The person's side in another instance: not a DBOS runtime, it reaches the workflows by DBOSClient. */
  function personInstance() {
    const deliveries: Draft[] = [];
    const events: RegistryEvent[] = [];
    const waiting: { confirmationId: string; resolve: () => void }[] = [];
    const person = deskRegistry({
      ...store,
      deliveries,
      notify: [dbosNotifier({ client })],
      onEvent: (event) => {
        events.push(event);
        if (event.type !== 'notify' || !event.ok || event.channel !== 'dbos') return;
        for (const w of waiting.filter((w) => w.confirmationId === event.confirmationId)) w.resolve();
      },
    });
    closers.push(person.close);
    return {
      ...person,
      deliveries,
      events,
      /** Resolves once the channel has handed the decision on `confirmationId` to DBOS. */
      sent: (confirmationId: string) =>
        new Promise<void>((resolve) => {
          const seen = events.some(
            (e) => e.type === 'notify' && e.ok && e.channel === 'dbos' && e.confirmationId === confirmationId,
          );
          if (seen) resolve();
          else waiting.push({ confirmationId, resolve });
        }),
    };
  }

  function startChild(mode: 'start' | 'recover', workflowId: string, completions: string) {
    const child = startWorkflowProcess({ mode, systemDatabaseUrl, store, workflowId, completions });
    children.push(child);
    return child;
  }

  /** The confirmation a run proposed, once it says so (DBOSClient polls; a short interval keeps tests quick). */
  async function proposed(workflowId: string): Promise<string> {
    const id = await client.getEvent<string>(workflowId, PROPOSED_EVENT, {
      timeoutSeconds: 60,
      pollingIntervalMs: 100,
    });
    if (typeof id !== 'string') throw new Error(`run ${workflowId} proposed nothing within 60 s`);
    return id;
  }

  async function decided(registry: typeof local.registry, id: string) {
    const read = await registry.confirmations.get(id);
    if (!read.ok) throw new Error(read.error);
    return read.confirmation;
  }

  it('a workflow proposes with its id as ref, a person rejects, and the run resumes with the reason', async () => {
    const workflowID = `ask-${randomUUID()}`;
    const handle = await DBOS.startWorkflow(ask, { workflowID })({ to: 'ana@example.com', text: 'Hi' });
    const confirmationId = await proposed(workflowID);
    const pending = await decided(local.registry, confirmationId);
    expect(pending).toMatchObject({ status: 'pending', ref: workflowID, actor: 'agent:desk-bot' });

    const rejected = await local.registry.reject(confirmationId, {
      rejectedBy: 'li',
      reason: 'wrong customer',
    });
    expect(rejected.ok).toBe(true);
    const words = await handle.getResult();
    expect(words).toBe(describeDecision(await decided(local.registry, confirmationId), 'en'));
    expect(words).toContain('wrong customer');
  }, 90_000);

  it('the same decided notice sent twice, and once more by another instance, reaches the workflow once', async () => {
    const workflowID = `collect-${randomUUID()}`;
    const handle = await DBOS.startWorkflow(collect, { workflowID })();
    // A real notice: the registry's own, caught by a channel that only records.
    let notice: ApprovalNotice | undefined;
    const recorder: Notifier = {
      channel: 'recorder',
      async send(n) {
        if (n.kind === 'decided') notice = n;
        return { ok: true };
      },
    };
    const app = deskRegistry({ ...store, notify: [recorder] });
    closers.push(app.close);
    const asked = await app.registry.propose(
      'message.send',
      { to: 'bo@example.com', text: 'Hello' },
      { actor: 'agent:desk-bot', scope: 'desk', ref: workflowID },
    );
    if (!asked.ok || !('confirmationId' in asked)) throw new Error(JSON.stringify(asked));
    await app.registry.reject(asked.confirmationId, { rejectedBy: 'li', reason: 'not now' });
    await expect.poll(() => notice, { timeout: 10_000 }).toBeDefined();
    const decidedNotice = notice as ApprovalNotice;

    const here = dbosNotifier();
    const elsewhere = dbosNotifier({ client });
    expect(await here.send(decidedNotice, {})).toEqual({ ok: true });
    expect(await here.send(decidedNotice, {})).toEqual({ ok: true });
    expect(await elsewhere.send(decidedNotice, {})).toEqual({ ok: true });
    await DBOS.send(workflowID, 'go', 'go');

    const { first, second } = await handle.getResult();
    expect(first).toEqual({
      confirmationId: asked.confirmationId,
      status: 'rejected',
      at: expect.any(String),
      by: 'li',
      note: 'not now',
    });
    expect(second).toBeNull();
  }, 90_000);

  it('a ref that names no workflow is refused by the channel, and the decision stands', async () => {
    const person = personInstance();
    const asked = await person.registry.propose(
      'message.send',
      { to: 'cy@example.com', text: 'Hello' },
      { actor: 'agent:desk-bot', scope: 'desk', ref: `no-such-workflow-${randomUUID()}` },
    );
    if (!asked.ok || !('confirmationId' in asked)) throw new Error(JSON.stringify(asked));
    expect(await person.registry.reject(asked.confirmationId, { rejectedBy: 'li' })).toMatchObject({
      ok: true,
    });
    await expect
      .poll(() => person.events.find((e) => e.type === 'notify' && e.channel === 'dbos' && e.attempt === 0), {
        timeout: 10_000,
      })
      .toMatchObject({ ok: false, error: expect.stringContaining('no DBOS workflow') });
    expect((await decided(person.registry, asked.confirmationId)).status).toBe('rejected');
  }, 60_000);

  it('the workflow process is killed while waiting, the person confirms meanwhile, and the restarted run completes once', async () => {
    const workflowId = `ask-${randomUUID()}`;
    const completions = join(dir.path, `${workflowId}.log`);
    writeFileSync(completions, '');
    const person = personInstance();

    const first = startChild('start', workflowId, completions);
    const confirmationId = await proposed(workflowId);
    await first.line('started');
    first.child.kill('SIGKILL');
    expect((await first.exited).signal).toBe('SIGKILL');

    const shown = await decided(person.registry, confirmationId);
    const confirmed = await person.registry.confirm(confirmationId, {
      approvedBy: 'li',
      digest: shown.digest,
    });
    expect(confirmed.ok).toBe(true);
    await person.sent(confirmationId);

    const second = startChild('recover', workflowId, completions);
    const { result } = await second.line<{ result: string }>('result');
    expect((await second.exited).code).toBe(0);
    const record = await decided(person.registry, confirmationId);
    expect(record.status).toBe('delivered');
    expect(result).toBe(describeDecision(record, 'en'));
    expect(result).toMatch(/^Sent at /);
    expect(person.deliveries).toEqual([{ to: 'ana@example.com', text: 'Your export link.' }]);
    expect(readFileSync(completions, 'utf8')).toBe(`${workflowId} ${result}\n`);
    expect(await client.retrieveWorkflow(workflowId).getStatus()).toMatchObject({ status: 'SUCCESS' });
  }, 120_000);

  it('the workflow process is killed while waiting and restarted, then the person rejects, and the run completes once', async () => {
    const workflowId = `ask-${randomUUID()}`;
    const completions = join(dir.path, `${workflowId}.log`);
    writeFileSync(completions, '');
    const person = personInstance();

    const first = startChild('start', workflowId, completions);
    const confirmationId = await proposed(workflowId);
    await first.line('started');
    first.child.kill('SIGKILL');
    await first.exited;

    const second = startChild('recover', workflowId, completions);
    await second.line('launched');
    const rejected = await person.registry.reject(confirmationId, {
      rejectedBy: 'li',
      reason: 'wrong customer',
    });
    expect(rejected.ok).toBe(true);

    const { result } = await second.line<{ result: string }>('result');
    expect((await second.exited).code).toBe(0);
    const record = await decided(person.registry, confirmationId);
    expect(result).toBe(describeDecision(record, 'en'));
    expect(result).toContain('wrong customer');
    expect(person.deliveries).toEqual([]);
    expect(readFileSync(completions, 'utf8')).toBe(`${workflowId} ${result}\n`);
  }, 120_000);
});

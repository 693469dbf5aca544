import { join } from 'node:path';
import {
  type ConfirmRequired,
  createMemoryStore,
  definePlan,
  describeDecision,
  type Rule,
  runPlan,
  ToolRegistry,
} from 'graded-tools';
import { createPostgresStore } from 'graded-tools/postgres';
import { createSqliteStore } from 'graded-tools/sqlite';
import type { ConfirmationStore } from 'graded-tools/store';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { describePostgres, storeTables, uniqueTable } from '../helpers/postgres.js';
import { tempDir } from '../helpers/temp-dir.js';
import { readTool } from '../helpers/tools.js';

const dir = tempDir();
afterAll(() => dir.remove());

/** A calendar app's write: it moves a meeting, and records every run. */
function calendar(store: ConfirmationStore, rules: readonly Rule[] = []) {
  const runs: unknown[] = [];
  const registry = new ToolRegistry({ confirmations: store })
    .register({
      name: 'calendar.reschedule',
      title: 'Reschedule a meeting',
      description: 'Move a meeting to another day.',
      sideEffect: 'write',
      effect: 'Moves {meeting} to {date}',
      inputSchema: {
        type: 'object',
        properties: { meeting: { type: 'string' }, date: { type: 'string' } },
        required: ['meeting', 'date'],
        additionalProperties: false,
      },
      rules,
      run: (input: { meeting: string; date: string }) => {
        runs.push(input);
        return { moved: input.meeting, to: input.date };
      },
    })
    .register(readTool('calendar.list').tool);
  const input = { meeting: 'standup', date: '2026-03-02' };
  const propose = (actor = 'agent:planner') =>
    registry.propose('calendar.reschedule', input, {
      actor,
      note: 'Ana asked to move the standup to Monday.',
      links: [{ label: 'Thread', url: 'https://mail.example/t/1' }],
      ref: 'conv-9',
    });
  return { registry, runs, input, propose };
}

/** A store a case opens, and closes when it has one to close (the SQL stores). */
type Opened = ConfirmationStore & { close?(): unknown };

/** The same cases on every store: memory, SQLite (a real file) and PostgreSQL. */
function proposedWrites(open: () => Opened | Promise<Opened>) {
  it('is stored pending with its input as the payload; one confirm runs it exactly once', async () => {
    const store = await open();
    const { registry, runs, input, propose } = calendar(store);
    const asked = await propose();
    expect(asked).toMatchObject({ ok: true, requiresConfirm: true, confirmPayload: input });
    expect(runs).toEqual([]);
    const { confirmationId: id, digest } = asked as ConfirmRequired;

    const stored = await registry.confirmations.get(id);
    expect(stored.ok && stored.confirmation).toMatchObject({
      tool: 'calendar.reschedule',
      sideEffect: 'write',
      status: 'pending',
      input,
      payload: input,
      actor: 'agent:planner',
      note: 'Ana asked to move the standup to Monday.',
      links: [{ label: 'Thread', url: 'https://mail.example/t/1' }],
      ref: 'conv-9',
    });

    const confirmed = await registry.confirm(id, { approvedBy: 'ana', digest });
    expect(confirmed).toMatchObject({ ok: true, data: { moved: 'standup', to: '2026-03-02' } });
    const again = await registry.confirm(id, { approvedBy: 'li', digest });
    expect(again).toMatchObject({ ok: false, code: 'ALREADY_DECIDED' });
    if (!again.ok) expect(again.error).toBe('This confirmation was already applied; nothing was done again.');
    expect(runs).toEqual([input]);

    const decided = await registry.confirmations.waitFor(id);
    if (!decided.ok) throw new Error(decided.error);
    expect(decided.confirmation.status).toBe('delivered');
    expect(describeDecision(decided.confirmation)).toMatch(/^Applied at .+: a person approved it\.$/);
    expect(describeDecision(decided.confirmation, 'zh-CN')).toMatch(/^已于 .+ 执行：有人批准了它。$/);
    await store.close?.();
  });

  it('waits for every approval a quorum rule asks for, then runs once', async () => {
    const store = await open();
    const { registry, runs, propose } = calendar(store, [{ name: 'two-people', approvals: 2 }]);
    const { confirmationId: id, digest } = (await propose()) as ConfirmRequired;
    const first = await registry.confirm(id, { approvedBy: 'ana', digest });
    expect(first).toMatchObject({ ok: false, code: 'AWAITING_APPROVALS' });
    expect(runs).toEqual([]);
    await expect(registry.confirm(id, { approvedBy: 'li', digest })).resolves.toMatchObject({ ok: true });
    expect(runs).toHaveLength(1);
    const decided = await registry.confirmations.get(id);
    expect(decided.ok && describeDecision(decided.confirmation)).toMatch(
      /^Applied at .+: 2 people approved it\.$/,
    );
    await store.close?.();
  });

  it('a rejected write tells the model nothing was changed, and never runs', async () => {
    const store = await open();
    const { registry, runs, propose } = calendar(store);
    const { confirmationId: id } = (await propose()) as ConfirmRequired;
    await registry.reject(id, { rejectedBy: 'ana', reason: 'Monday is a holiday' });
    const decided = await registry.confirmations.get(id);
    expect(decided.ok && describeDecision(decided.confirmation)).toBe(
      'A person rejected this: Monday is a holiday. Nothing was changed.',
    );
    expect(runs).toEqual([]);
    await store.close?.();
  });
}

describe('propose of a write, on the memory store', () => {
  proposedWrites(() => createMemoryStore());
});

describe('propose of a write, on SQLite (a file)', () => {
  let n = 0;
  proposedWrites(() => createSqliteStore({ path: join(dir.path, `writes-${++n}.db`) }));
});

await describePostgres('propose of a write, on PostgreSQL', (url) => {
  const tables: string[] = [];
  afterAll(async () => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    for (const table of tables) await client.query(`DROP TABLE IF EXISTS ${storeTables(table)}`);
    await client.end();
  });
  proposedWrites(async () => {
    const table = uniqueTable('writes');
    tables.push(table);
    const store = createPostgresStore({ connectionString: url, table });
    await store.migrate?.();
    return store;
  });
});

describe('propose of a write: what the rules and the other callers still decide', () => {
  it('a deny rule refuses it and stores nothing', async () => {
    const store = createMemoryStore();
    const { registry, runs, propose } = calendar(store, [
      { name: 'no-weekends', when: "input.date == '2026-03-02'", deny: 'not on that day' },
    ]);
    await expect(propose()).resolves.toMatchObject({ ok: false, code: 'RULE_DENIED', rule: 'no-weekends' });
    const listed = await registry.confirmations.list();
    expect(listed.ok && listed.confirmations).toEqual([]);
    expect(runs).toEqual([]);
  });

  it('a limit rule counts each proposal and refuses past its max', async () => {
    const { registry, propose } = calendar(createMemoryStore(), [
      { name: 'one-a-day', limit: { calls: 1, per: 'day', by: 'actor' } },
    ]);
    await expect(propose()).resolves.toMatchObject({ ok: true, requiresConfirm: true });
    await expect(propose()).resolves.toMatchObject({ ok: false, code: 'LIMIT_REACHED' });
    await expect(propose('agent:other')).resolves.toMatchObject({ ok: true });
    expect(registry.has('calendar.reschedule')).toBe(true);
  });

  it('a read is refused by propose, saying to invoke it', async () => {
    const { registry } = calendar(createMemoryStore());
    const refused = await registry.propose('calendar.list', { query: 'x' }, { actor: 'agent:planner' });
    expect(refused).toMatchObject({ ok: false, code: 'INVALID_OPTION' });
    expect(refused.ok ? '' : refused.error).toMatch(/read tool.*invoke it instead/);
  });

  it("the model's exit still never reaches a write", async () => {
    const { registry, runs, input } = calendar(createMemoryStore());
    for (const name of ['calendar.reschedule', 'calendar__reschedule'])
      await expect(registry.invokeReadOnly(name, input)).resolves.toMatchObject({
        ok: false,
        code: 'UNKNOWN_TOOL',
      });
    expect(runs).toEqual([]);
  });

  it("a person's invoke and a plan still run a write directly when no rule asks a person", async () => {
    const { registry, runs, input } = calendar(createMemoryStore());
    await expect(registry.invoke('calendar.reschedule', input, { actor: 'ana' })).resolves.toMatchObject({
      ok: true,
      data: { moved: 'standup' },
    });
    const plan = definePlan({
      name: 'move',
      steps: [{ tool: 'calendar.reschedule', buildInput: () => input }],
    });
    const ran = await runPlan(plan, {}, { registry });
    expect(ran.steps[0]?.result).toMatchObject({ ok: true, data: { moved: 'standup' } });
    expect(runs).toHaveLength(2);
  });

  it('a write whose Standard Schema answers later is still only stored, never run', async () => {
    const runs: unknown[] = [];
    const registry = new ToolRegistry().register({
      name: 'notes.save',
      description: 'Save a note.',
      sideEffect: 'write',
      inputSchema: {
        '~standard': {
          version: 1,
          vendor: 'test',
          validate: async (value: unknown) => ({ value }),
          jsonSchema: { input: () => ({ type: 'object' }) },
        },
      } as never,
      run: (input: unknown) => {
        runs.push(input);
        return 'saved';
      },
    });
    const asked = await registry.propose('notes.save', { text: 'hi' }, { actor: 'agent:x' });
    expect(asked).toMatchObject({ ok: true, requiresConfirm: true, confirmPayload: { text: 'hi' } });
    expect(runs).toEqual([]);
  });

  it('effect is accepted on a write and filled from its input; holdMs stays for sends', () => {
    const { registry } = calendar(createMemoryStore());
    expect(registry.confirmations.tool('calendar.reschedule')).toMatchObject({
      sideEffect: 'write',
      effect: 'Moves {meeting} to {date}',
    });
    expect(() =>
      new ToolRegistry().register({
        name: 'notes.save',
        description: 'Save a note.',
        sideEffect: 'write',
        inputSchema: { type: 'object' },
        holdMs: 1_000,
        run: () => 'saved',
      } as never),
    ).toThrow(/holdMs.*only for `send` tools/);
    expect(() =>
      new ToolRegistry().register({
        name: 'notes.find',
        description: 'Find a note.',
        sideEffect: 'read',
        inputSchema: { type: 'object' },
        effect: 'Finds {text}',
        run: () => [],
      }),
    ).toThrow(/a read tool is never confirmed/);
  });
});

describe('what a confirmed write and a send are handed', () => {
  /** A write and a send in scope `desk`, each recording what its functions were handed. */
  function desk() {
    const seen: Record<string, unknown>[] = [];
    const registry = new ToolRegistry<{ tenant: string }>()
      .register({
        name: 'ledger.note',
        description: 'Add a note to the ledger.',
        sideEffect: 'write',
        scopes: ['desk'],
        inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
        run: (input, ctx) => {
          seen.push({ fn: 'run', caller: ctx.caller, scope: ctx.scope, context: ctx.context });
          if (input.text === 'flaky' && seen.length === 1) throw new Error('the ledger was busy');
          return 'noted';
        },
      })
      .register({
        name: 'mail.send',
        description: 'Email a customer.',
        sideEffect: 'send',
        scopes: ['desk'],
        inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
        prepare: (input, ctx) => {
          seen.push({ fn: 'prepare', caller: ctx.caller, scope: ctx.scope, context: ctx.context });
          return { text: String(input.text) };
        },
        deliver: (_payload, approval) => {
          seen.push({ fn: 'deliver', approvedBy: approval.approvedBy, id: approval.confirmationId });
          return 'sent';
        },
      });
    return { registry, seen };
  }

  it("a confirmed write's run sees the scope it was confirmed in and the confirm's context", async () => {
    const { registry, seen } = desk();
    const asked = await registry.propose(
      'ledger.note',
      { text: 'hi' },
      { actor: 'agent:books', scope: 'desk', context: { tenant: 'asker' } },
    );
    const { confirmationId: id } = asked as ConfirmRequired;
    expect((await registry.confirmations.get(id)).confirmation).toMatchObject({ scope: 'desk' });
    const done = await registry.confirm(id, { approvedBy: 'lead-2', context: { tenant: 'acme' } });
    expect(done).toMatchObject({ ok: true, data: 'noted' });
    expect(seen).toEqual([{ fn: 'run', caller: 'person', scope: 'desk', context: { tenant: 'acme' } }]);
  });

  it('a confirm naming no scope runs it in the scope it was asked in; no context when none is given', async () => {
    const { registry, seen } = desk();
    const asked = await registry.propose('ledger.note', { text: 'hi' }, { actor: 'a', scope: 'desk' });
    const { confirmationId: id } = asked as ConfirmRequired;
    await registry.confirm(id, { approvedBy: 'lead-2' });
    expect(seen).toEqual([{ fn: 'run', caller: 'person', scope: 'desk', context: undefined }]);
  });

  it('a retry runs it in the scope the retry was gated in, with the context it gives', async () => {
    const { registry, seen } = desk();
    const asked = await registry.propose('ledger.note', { text: 'flaky' }, { actor: 'a', scope: 'desk' });
    const { confirmationId: id } = asked as ConfirmRequired;
    await expect(registry.confirm(id, { approvedBy: 'lead-2' })).resolves.toMatchObject({
      code: 'DELIVERY_FAILED',
      confirmation: { status: 'failed' },
    });
    const again = await registry.retry(id, { approvedBy: 'lead-3', context: { tenant: 'retry' } });
    expect(again).toMatchObject({ ok: true, data: 'noted' });
    expect(seen).toEqual([
      { fn: 'run', caller: 'person', scope: 'desk', context: undefined },
      { fn: 'run', caller: 'person', scope: 'desk', context: { tenant: 'retry' } },
    ]);
  });

  it("a send's prepare sees the asker's scope and context; deliver its approval", async () => {
    const { registry, seen } = desk();
    const asked = await registry.propose(
      'mail.send',
      { text: 'hi' },
      { actor: 'agent:mail', scope: 'desk', context: { tenant: 'asker' } },
    );
    const { confirmationId: id } = asked as ConfirmRequired;
    await registry.confirm(id, { approvedBy: 'lead-2', context: { tenant: 'acme' } });
    expect(seen).toEqual([
      { fn: 'prepare', caller: 'autonomous', scope: 'desk', context: { tenant: 'asker' } },
      { fn: 'deliver', approvedBy: 'lead-2', id },
    ]);
  });
});

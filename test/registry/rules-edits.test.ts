import { join } from 'node:path';
import {
  type ConfirmRequired,
  createMemoryStore,
  type Rule,
  type SendToolDefinition,
  ToolRegistry,
} from 'graded-tools';
import { createPostgresStore } from 'graded-tools/postgres';
import { createSqliteStore } from 'graded-tools/sqlite';
import type { ConfirmationStore } from 'graded-tools/store';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { describePostgres, storeTables, uniqueTable } from '../helpers/postgres.js';
import { tempDir } from '../helpers/temp-dir.js';

// Issue 23: a person's edit is judged by the tool's rules as the call they would have made with it.
const T0 = Date.parse('2030-01-01T12:00:00.000Z');

const RULES: readonly Rule[] = [
  { name: 'two-finance', when: 'input.amount > 500', approvals: 2, approverFlags: ['finance'] },
  { name: 'cap', when: 'input.amount > 10000', deny: 'Over 10,000: use the finance system.' },
  { name: 'daily', limit: { sum: 'input.amount', max: 1000, per: 'day', by: 'actor' } },
];

function payments(store: ConfirmationStore) {
  const delivered: { amount: number; approvedBy: string }[] = [];
  const tool: SendToolDefinition = {
    name: 'payment.send',
    description: 'Pays a supplier.',
    sideEffect: 'send',
    inputSchema: {
      type: 'object',
      properties: { to: { type: 'string' }, amount: { type: 'number' } },
      required: ['to', 'amount'],
    },
    payloadSchema: {
      type: 'object',
      properties: { to: { type: 'string' }, amount: { type: 'number', minimum: 0 } },
      required: ['to', 'amount'],
    },
    editable: ['amount'],
    prepare: (input) => input as { to: string; amount: number },
    deliver: (payload, approval) => {
      delivered.push({ amount: (payload as { amount: number }).amount, approvedBy: approval.approvedBy });
      return { paid: true };
    },
    rules: RULES,
  } as SendToolDefinition;
  const registry = new ToolRegistry({ now: () => T0, confirmations: store }).register(tool);
  const propose = async (amount: number): Promise<ConfirmRequired> => {
    const asked = await registry.propose('payment.send', { to: 'acme', amount }, { actor: 'agent:bot' });
    expect(asked).toMatchObject({ ok: true, requiresConfirm: true });
    return asked as ConfirmRequired;
  };
  const edit = (asked: ConfirmRequired, amount: number, approvedBy: string, flags = {}) =>
    registry.confirm(asked.confirmationId, {
      approvedBy,
      digest: asked.digest,
      payload: { to: 'acme', amount },
      flags,
    });
  const stored = async (asked: ConfirmRequired) => {
    const found = await registry.confirmations.get(asked.confirmationId);
    if (!found.ok) throw new Error(found.error);
    return found.confirmation;
  };
  return { registry, delivered, propose, edit, stored };
}

const finance = { finance: true };

function editCases(open: () => Promise<{ store: ConfirmationStore; close(): Promise<void> }>): void {
  it('an edit a deny rule refuses is refused: nothing changes, still pending', async () => {
    const { store, close } = await open();
    const { delivered, propose, edit, stored } = payments(store);
    const asked = await propose(100);
    const refused = await edit(asked, 50_000, 'ann');
    expect(refused).toMatchObject({ ok: false, code: 'RULE_DENIED', rule: 'cap' });
    expect(refused.ok ? '' : refused.error).toContain('Over 10,000');
    expect(delivered).toEqual([]);
    expect(await stored(asked)).toMatchObject({ status: 'pending', payload: { amount: 100 } });
    await close();
  });

  it('an edit that needs more approvals restarts the count under the new requirement', async () => {
    const { store, close } = await open();
    const { registry, delivered, propose, edit, stored } = payments(store);
    const asked = await propose(100);
    expect((await stored(asked)).requires).toBeUndefined();
    // The flagless approver cannot make it a payment that needs finance, and changes nothing.
    const flagless = await edit(asked, 600, 'ann');
    expect(flagless).toMatchObject({ ok: false, code: 'FLAG_NOT_GRANTED' });
    expect(flagless.ok ? '' : flagless.error).toContain('finance');
    expect(await stored(asked)).toMatchObject({ status: 'pending', payload: { amount: 100 } });
    expect(delivered).toEqual([]);

    const first = await edit(asked, 600, 'fin-1', finance);
    expect(first).toMatchObject({ ok: false, code: 'AWAITING_APPROVALS' });
    const after = await stored(asked);
    expect(after).toMatchObject({
      status: 'pending',
      payload: { amount: 600 },
      requires: { approvals: 2, approverFlags: ['finance'], rules: ['two-finance'] },
      approvals: [{ by: 'fin-1', digest: after.digest }],
    });
    const edited = { ...asked, digest: after.digest };
    await expect(
      registry.confirm(asked.confirmationId, { approvedBy: 'ann', digest: edited.digest }),
    ).resolves.toMatchObject({ ok: false, code: 'FLAG_NOT_GRANTED' });
    expect(delivered).toEqual([]);
    const second = await registry.confirm(asked.confirmationId, {
      approvedBy: 'fin-2',
      digest: edited.digest,
      flags: finance,
    });
    expect(second).toMatchObject({ ok: true, confirmation: { status: 'delivered' } });
    expect(delivered).toEqual([{ amount: 600, approvedBy: 'fin-2' }]);
    await close();
  });

  it('a sum limit counts the edited amount: the difference is spent, or given back', async () => {
    const { store, close } = await open();
    const { delivered, propose, edit, registry } = payments(store);
    const small = await propose(100);
    await propose(400);
    // 500 of 1,000 used. Raising the 100 to 450 spends 350 more: 850.
    await expect(edit(small, 450, 'ann')).resolves.toMatchObject({ ok: true });
    expect(delivered).toEqual([{ amount: 450, approvedBy: 'ann' }]);
    await expect(
      registry.propose('payment.send', { to: 'acme', amount: 200 }, { actor: 'agent:bot' }),
    ).resolves.toMatchObject({ ok: false, code: 'LIMIT_REACHED' });
    const last = await propose(150);
    // 1,000 used: an edit that adds to it is refused with the limit, and changes nothing.
    await expect(edit(last, 160, 'ann')).resolves.toMatchObject({ ok: false, code: 'LIMIT_REACHED' });
    // Lowering it gives the difference back.
    await expect(edit(last, 50, 'ann')).resolves.toMatchObject({ ok: true });
    await propose(100);
    await expect(
      registry.propose('payment.send', { to: 'acme', amount: 1 }, { actor: 'agent:bot' }),
    ).resolves.toMatchObject({ ok: false, code: 'LIMIT_REACHED' });
    expect(delivered.map((d) => d.amount)).toEqual([450, 50]);
    await close();
  });
}

describe('rules and editable fields at register', () => {
  it('refuses an editable field no rule could see: the input has no field of that name', () => {
    const tool = {
      name: 'payment.send',
      description: 'Pays a supplier.',
      sideEffect: 'send',
      inputSchema: { type: 'object', properties: { cents: { type: 'number' } } },
      payloadSchema: { type: 'object', properties: { amount: { type: 'number' } } },
      editable: ['amount'],
      prepare: (input: { cents: number }) => ({ amount: input.cents / 100 }),
      deliver: () => ({}),
      rules: [{ when: 'input.cents > 100', deny: 'Too much.' }],
    } as SendToolDefinition;
    expect(() => new ToolRegistry().register(tool)).toThrow(
      /inputSchema's properties.*"amount"|"amount".*inputSchema/,
    );
    // Without rules nothing reads the input again: the same tool registers.
    expect(() => new ToolRegistry().register({ ...tool, rules: [] } as SendToolDefinition)).not.toThrow();
  });
});

describe('rules judge an edited payload: memory store', () => {
  editCases(async () => ({ store: createMemoryStore(), close: async () => {} }));
});

const dir = tempDir();
afterAll(() => dir.remove());

describe('rules judge an edited payload: SQLite', () => {
  let n = 0;
  editCases(async () => {
    const store = createSqliteStore({ path: join(dir.path, `edits-${++n}.db`) });
    return { store, close: async () => store.close() };
  });
});

await describePostgres('rules judge an edited payload: PostgreSQL', (url) => {
  const tables: string[] = [];
  afterAll(async () => {
    const pool = new pg.Pool({ connectionString: url, max: 1 });
    for (const table of tables) await pool.query(`DROP TABLE IF EXISTS ${storeTables(table)}`);
    await pool.end();
  });
  editCases(async () => {
    const table = uniqueTable('gt_rule_edits');
    tables.push(table);
    const store = createPostgresStore({ connectionString: url, table });
    await store.migrate();
    return { store, close: () => store.close() };
  });
});

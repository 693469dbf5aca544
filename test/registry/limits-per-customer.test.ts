import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import {
  createMemoryStore,
  type Rule,
  type ToolDefinition,
  ToolDefinitionError,
  ToolRegistry,
} from 'graded-tools';
import { createPostgresStore } from 'graded-tools/postgres';
import { createSqliteStore } from 'graded-tools/sqlite';
import type { ConfirmationStore } from 'graded-tools/store';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { postgresOrSkip, storeTables, uniqueTable } from '../helpers/postgres.js';
import { tempDir } from '../helpers/temp-dir.js';

// The story: at most 500 EUR refunded per customer per day, counting what goes out.
const T0 = Date.parse('2030-01-01T09:00:00.000Z');
const HOUR = 3_600_000;
const HOLD = 60_000;

const dailyRefunds: Rule = {
  name: 'daily-refunds',
  limit: { sum: 'input.amount', max: 500, per: 'day', by: 'input.customer', count: 'delivered' },
};

const refundSchema = {
  type: 'object',
  properties: {
    customer: { type: 'string' },
    amount: { type: 'number' },
    address: { type: 'object', properties: { city: { type: 'string' } } },
    tags: { type: 'array', items: { type: 'string' } },
    label: { type: 'string' },
  },
  required: ['amount'],
};

/** A refund send tool whose delivery the test steers: it goes out, throws, or hangs past its timeout. */
function refundTool(name: string, extra: Partial<ToolDefinition> = {}) {
  const state = { mode: 'ok' as 'ok' | 'throw' | 'hang', delivered: [] as unknown[] };
  const tool = {
    name,
    description: 'Refund a customer.',
    sideEffect: 'send',
    timeoutMs: 200,
    inputSchema: refundSchema,
    rules: [dailyRefunds],
    prepare: (input: unknown) => input,
    deliver: (payload: unknown) => {
      if (state.mode === 'throw') throw new Error('the bank said no');
      if (state.mode === 'hang') return new Promise(() => {});
      state.delivered.push(payload);
      return 'refunded';
    },
    ...extra,
  } as ToolDefinition;
  return { tool, state };
}

function desk(store: ConfirmationStore) {
  let now = T0;
  const refund = refundTool('refund.send');
  const held = refundTool('refund.held', { holdMs: HOLD });
  const edited = refundTool('refund.edited', {
    holdMs: HOLD,
    payloadSchema: {
      type: 'object',
      properties: { customer: { type: 'string' }, amount: { type: 'number' } },
    },
    editable: ['customer', 'amount'],
  } as Partial<ToolDefinition>);
  const registry = new ToolRegistry({ confirmations: store, now: () => now, confirmationTtlMs: HOUR })
    .register(refund.tool)
    .register(held.tool)
    .register(edited.tool);
  // A customer no other case (nor an earlier run on a shared database) counts for.
  const customer = () => `cus-${randomBytes(4).toString('hex')}`;
  const propose = (customerId: string, amount: number, tool = 'refund.send') =>
    registry.propose(tool, { customer: customerId, amount }, { actor: 'agent-7', note: 'refund' });
  const idOf = (answer: Awaited<ReturnType<typeof propose>>): string => {
    if (!answer.ok) throw new Error(`refused: ${answer.code} ${answer.error}`);
    return answer.confirmationId;
  };
  const used = async (customerId: string, tool = 'refund.send') => {
    const check = await registry.check(tool, { customer: customerId, amount: 0 }, { caller: 'autonomous' });
    return check.limits[0]?.used;
  };
  return {
    registry,
    refund: refund.state,
    held: held.state,
    customer,
    propose,
    idOf,
    used,
    advance: (ms: number) => {
      now += ms;
    },
  };
}

function story(name: string, open: () => Promise<ConfirmationStore>) {
  describe(`at most 500 EUR refunded per customer per day, counted on delivery: ${name}`, () => {
    it('a 450 refund rejected gives its allowance back: a 100 refund for the same customer now passes', async () => {
      const d = desk(await open());
      const ana = d.customer();
      const big = d.idOf(await d.propose(ana, 450));
      // Counted when asked: a second proposal cannot pass the cap while the first is pending.
      expect(await d.propose(ana, 100)).toMatchObject({
        ok: false,
        code: 'LIMIT_REACHED',
        rule: 'daily-refunds',
      });
      expect(await d.registry.reject(big, { rejectedBy: 'lead-li', reason: 'duplicate' })).toMatchObject({
        ok: true,
      });
      expect(await d.used(ana)).toBe(0);
      const small = d.idOf(await d.propose(ana, 100));
      expect(await d.registry.confirm(small, { approvedBy: 'lead-li' })).toMatchObject({ ok: true });
      expect(d.refund.delivered).toEqual([{ customer: ana, amount: 100 }]);
      expect(await d.used(ana)).toBe(100);
    });

    it('each customer has their own allowance, and check shows where each stands', async () => {
      const d = desk(await open());
      const [ana, ben] = [d.customer(), d.customer()];
      d.idOf(await d.propose(ana, 450));
      d.idOf(await d.propose(ben, 500));
      expect(await d.propose(ben, 1)).toMatchObject({ code: 'LIMIT_REACHED' });
      const check = await d.registry.check(
        'refund.send',
        { customer: ana, amount: 60 },
        { caller: 'autonomous' },
      );
      expect(check).toMatchObject({ outcome: 'limit', code: 'LIMIT_REACHED', rule: 'daily-refunds' });
      expect(check.limits).toEqual([
        {
          rule: 'daily-refunds',
          per: 'day',
          by: 'input.customer',
          byValue: ana,
          count: 'delivered',
          max: 500,
          used: 450,
          amount: 60,
          resetsAt: '2030-01-02T00:00:00.000Z',
          shadow: false,
        },
      ]);
      expect(check.reason).toContain(`per input.customer ("${ana}")`);
    });

    it('an expired proposal gives back, once, however many sweeps expire it', async () => {
      const d = desk(await open());
      const ana = d.customer();
      d.idOf(await d.propose(ana, 300));
      d.advance(HOUR / 2);
      // Still pending when the first expires: a second give-back would take from it.
      d.idOf(await d.propose(ana, 200));
      d.advance(HOUR / 2);
      const sweeps = await Promise.all([d.registry.sweep(), d.registry.sweep(), d.registry.sweep()]);
      expect(sweeps.every((s) => s.ok)).toBe(true);
      expect(await d.used(ana)).toBe(200);
      d.idOf(await d.propose(ana, 300));
    });

    it('a held send cancelled in its undo window gives back; one that goes out stays counted', async () => {
      const d = desk(await open());
      const ana = d.customer();
      const first = d.idOf(await d.propose(ana, 200, 'refund.held'));
      expect(await d.registry.confirm(first, { approvedBy: 'lead-li' })).toMatchObject({ code: 'SCHEDULED' });
      expect(await d.registry.cancel(first, { by: 'lead-li', reason: 'wrong customer' })).toMatchObject({
        ok: true,
      });
      const check = await d.registry.check(
        'refund.held',
        { customer: ana, amount: 0 },
        { caller: 'autonomous' },
      );
      expect(check.limits[0]?.used).toBe(0);
      const second = d.idOf(await d.propose(ana, 500, 'refund.held'));
      await d.registry.confirm(second, { approvedBy: 'lead-li' });
      d.advance(HOLD);
      await d.registry.sweep();
      expect(d.held.delivered).toEqual([{ customer: ana, amount: 500 }]);
      expect(await d.propose(ana, 1, 'refund.held')).toMatchObject({ code: 'LIMIT_REACHED' });
    });

    it('a failed delivery gives back (a retry counts again); an unknown one stays counted', async () => {
      const d = desk(await open());
      const [ana, ben] = [d.customer(), d.customer()];
      const failing = d.idOf(await d.propose(ana, 400));
      d.refund.mode = 'throw';
      expect(await d.registry.confirm(failing, { approvedBy: 'lead-li' })).toMatchObject({
        code: 'DELIVERY_FAILED',
        confirmation: { status: 'failed' },
      });
      expect(await d.used(ana)).toBe(0);
      d.refund.mode = 'ok';
      expect(await d.registry.retry(failing, { approvedBy: 'lead-li' })).toMatchObject({ ok: true });
      expect(await d.used(ana)).toBe(400);

      const lost = d.idOf(await d.propose(ben, 450));
      d.refund.mode = 'hang';
      expect(await d.registry.confirm(lost, { approvedBy: 'lead-li' })).toMatchObject({
        code: 'DELIVERY_FAILED',
        confirmation: { status: 'unknown' },
      });
      // It may have gone out: the allowance stays spent until a person decides.
      expect(await d.used(ben)).toBe(450);
      expect(await d.propose(ben, 100)).toMatchObject({ code: 'LIMIT_REACHED' });
    });

    it("a person's edit moves the count to the customer and amount it now holds, and a cancel gives that back", async () => {
      const d = desk(await open());
      const [ana, ben] = [d.customer(), d.customer()];
      const asked = await d.propose(ana, 450, 'refund.edited');
      if (!asked.ok) throw new Error(asked.error);
      const confirmed = await d.registry.confirm(asked.confirmationId, {
        approvedBy: 'lead-li',
        digest: asked.digest,
        payload: { customer: ben, amount: 100 },
      });
      expect(confirmed).toMatchObject({ code: 'SCHEDULED' });
      expect(await d.used(ana, 'refund.edited')).toBe(0);
      expect(await d.used(ben, 'refund.edited')).toBe(100);
      expect(await d.registry.cancel(asked.confirmationId, { by: 'lead-li' })).toMatchObject({ ok: true });
      expect(await d.used(ben, 'refund.edited')).toBe(0);
    });

    it('a call without a customer is refused, saying why, and counts for nobody', async () => {
      const d = desk(await open());
      const refused = await d.registry.propose('refund.send', { amount: 10 }, { actor: 'agent-7' });
      expect(refused).toMatchObject({ ok: false, code: 'RULE_DENIED', rule: 'daily-refunds' });
      expect(refused.ok ? '' : refused.error).toContain('counts per input.customer, whose value is missing');
      const empty = await d.registry.propose(
        'refund.send',
        { customer: '', amount: 10 },
        { actor: 'agent-7' },
      );
      expect(empty.ok ? '' : empty.error).toContain('is an empty string');
    });
  });
}

const dir = tempDir();
afterAll(() => dir.remove());

story('memory', async () => createMemoryStore());

const sqlite = createSqliteStore({ path: join(dir.path, 'limits.db') });
afterAll(() => sqlite.close());
story('SQLite (a file on disk)', async () => sqlite);

const url = await postgresOrSkip('limits per customer on PostgreSQL');
if (url !== undefined) {
  const table = uniqueTable('gt_limits_by');
  const postgres = createPostgresStore({ connectionString: url, table });
  await postgres.migrate();
  afterAll(async () => {
    await postgres.close();
    const admin = new pg.Pool({ connectionString: url, max: 1 });
    await admin.query(`DROP TABLE IF EXISTS ${storeTables(table)}`);
    await admin.end();
  });
  story('PostgreSQL', async () => postgres);
}

describe('limits by an argument: what register refuses', () => {
  const tool = (rules: readonly Rule[], extra: Partial<ToolDefinition> = {}) =>
    ({ ...refundTool('refund.send').tool, rules, ...extra }) as ToolDefinition;
  const refused = (rules: readonly Rule[], extra: Partial<ToolDefinition> = {}) => {
    try {
      new ToolRegistry().register(tool(rules, extra));
    } catch (error) {
      expect(error).toBeInstanceOf(ToolDefinitionError);
      expect((error as ToolDefinitionError).code).toBe('INVALID_RULE');
      return (error as Error).message;
    }
    throw new Error('registered');
  };
  const limit = (by: unknown, more: object = {}): Rule => ({
    name: 'cap',
    limit: { calls: 5, per: 'day', by: by as string, ...more },
  });

  it('a field the input schema does not describe', () => {
    expect(refused([limit('input.client')])).toMatch(
      /rule "cap".*input\.client, which the input schema does not describe/,
    );
  });

  it('an object or a list field', () => {
    expect(refused([limit('input.address')])).toMatch(/rule "cap".*input\.address, which holds an object/);
    expect(refused([limit('input.tags')])).toMatch(/input\.tags, which holds a list/);
  });

  it('a CEL expression that does not parse or gives neither a string nor an int', () => {
    expect(refused([limit('input.customer +')])).toMatch(/`limit\.by`: it does not parse/);
    expect(refused([limit('input.amount > 5')])).toMatch(/`limit\.by`: it gives bool/);
    expect(refused([limit(42)])).toMatch(/`limit\.by` must be/);
  });

  it('a sum over a field the schema types as a string', () => {
    expect(refused([{ name: 'cap', limit: { sum: 'input.label', max: 5, per: 'day', by: 'tool' } }])).toMatch(
      /`limit\.sum` reads input\.label, which the input schema types as string, not a number/,
    );
  });

  it("count other than 'asked' or 'delivered', and 'delivered' on a read", () => {
    expect(refused([limit('actor', { count: 'sent' })])).toMatch(/`limit\.count` must be/);
    expect(
      refused([limit('actor', { count: 'delivered' })], {
        sideEffect: 'read',
        run: () => 1,
        prepare: undefined,
        deliver: undefined,
      } as never),
    ).toMatch(/for send and write tools/);
  });

  it('accepts a nested path, a CEL expression and a function, and shows by and count', () => {
    const nested = {
      ...refundSchema,
      properties: {
        ...refundSchema.properties,
        owner: { type: 'object', properties: { id: { type: 'integer' } } },
      },
    };
    const registry = new ToolRegistry().register(
      tool(
        [
          limit('input.owner.id'),
          { ...limit('actor + "/" + input.customer'), name: 'cel' },
          { ...limit((call: { input: { customer?: unknown } }) => String(call.input.customer)), name: 'fn' },
          dailyRefunds,
        ],
        { inputSchema: nested },
      ),
    );
    expect(registry.get('refund.send')?.rules?.map((rule) => rule.limit)).toEqual([
      { calls: 5, per: 'day', by: 'input.owner.id' },
      { calls: 5, per: 'day', by: 'actor + "/" + input.customer' },
      { calls: 5, per: 'day', by: '(function)' },
      { sum: 'input.amount', max: 500, per: 'day', by: 'input.customer', count: 'delivered' },
    ]);
  });
});

describe('limits by an argument: the key', () => {
  it('values with separators, numbers and their text, and long values keep apart', async () => {
    let now = T0;
    const registry = new ToolRegistry({ now: () => now }).register({
      name: 'note.write',
      description: 'Write a note.',
      sideEffect: 'write',
      inputSchema: { type: 'object', properties: { who: { type: ['string', 'number'] } } },
      rules: [{ name: 'one-each', limit: { calls: 1, per: 'hour', by: 'input.who' } }],
      run: () => 'ok',
    } as ToolDefinition);
    const call = (who: unknown) => registry.invoke('note.write', { who });
    const long = 'x'.repeat(5_000);
    for (const who of ['a","b', 'a', 'b', 42, '42', long, `${long}y`, 'a\u0000b'])
      expect(await call(who)).toMatchObject({ ok: true });
    for (const who of ['a","b', 42, '42', long])
      expect(await call(who)).toMatchObject({ code: 'LIMIT_REACHED' });
    expect(await call({ nested: true })).toMatchObject({ code: 'INVALID_INPUT' });
    now += HOUR;
    expect(await call('a')).toMatchObject({ ok: true });
  });
});

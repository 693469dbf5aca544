import { createMemoryStore } from 'graded-tools';
import { afterEach, describe, expect, it } from 'vitest';
import { type ConsoleFixture, consoleFixture } from './setup.js';

// Issue 25: before the click, a pending card says where each of its limits stands for this call, in
// words: how much of the cap is used in its window, for whom, this call included.

describe('a card says where its limits stand', () => {
  let f: ConsoleFixture;
  afterEach(() => f.close());
  const cardOf = async (id: string, locale = 'en') =>
    (await f.json(`/api/confirmations/${id}`, { person: 'lead-li', headers: { 'accept-language': locale } }))
      .body.confirmation;

  it('per customer, today, with this call counted; none on a tool without limits', async () => {
    f = consoleFixture(() => ({ store: createMemoryStore(), close: () => {} }));
    f.registry.register({
      name: 'refund.send',
      description: 'Refunds a customer.',
      sideEffect: 'send',
      inputSchema: {
        type: 'object',
        properties: { customer: { type: 'string' }, amount: { type: 'number' } },
        required: ['customer', 'amount'],
      },
      rules: [
        {
          name: 'refund-cap',
          limit: { sum: 'input.amount', max: 500, per: 'day', by: 'input.customer', count: 'delivered' },
        },
        { name: 'shadow-cap', limit: { calls: 1, per: 'hour', by: 'actor' }, mode: 'shadow' },
      ],
      prepare: (input) => input,
      deliver: () => 'refunded',
    });
    const first = await f.registry.propose(
      'refund.send',
      { customer: 'cus-42', amount: 100 },
      { actor: 'bot' },
    );
    const second = await f.registry.propose(
      'refund.send',
      { customer: 'cus-42', amount: 50 },
      { actor: 'bot' },
    );
    const other = await f.registry.propose(
      'refund.send',
      { customer: 'cus-43', amount: 20 },
      { actor: 'bot' },
    );
    if (!first.ok || !second.ok || !other.ok) throw new Error('not proposed');
    expect((await cardOf(second.confirmationId)).limitsText).toEqual([
      "Limit refund-cap: 150 of 500 today for cus-42 (this one's 50 included)",
    ]);
    expect((await cardOf(other.confirmationId, 'zh-CN')).limitsText).toEqual([
      '限额“refund-cap”：今天（cus-43）已用 20/500（含这一笔 20）',
    ]);
    // A rejected one gives its count back, and a decided card no longer speaks of limits.
    await f.registry.reject(first.confirmationId, { rejectedBy: 'lead-li' });
    expect((await cardOf(second.confirmationId)).limitsText).toEqual([
      "Limit refund-cap: 50 of 500 today for cus-42 (this one's 50 included)",
    ]);
    expect((await cardOf(first.confirmationId)).limitsText).toBeUndefined();
  });
});

import { type ConfirmRequired, createMemoryStore } from 'graded-tools';
import { afterEach, describe, expect, it } from 'vitest';
import { type ConsoleFixture, consoleFixture } from './setup.js';

// Issue 32: a pending card proposed while another pending one of its tool had the same payload says
// so, in the person's words, so a double refund is not one click away.

describe('a card flags another pending one with the same payload', () => {
  let f: ConsoleFixture;
  afterEach(() => f.close());
  const cardOf = async (id: string, locale = 'en') =>
    (await f.json(`/api/confirmations/${id}`, { person: 'lead-li', headers: { 'accept-language': locale } }))
      .body.confirmation;

  it('on the second of two equal refunds, in English and Chinese; not on the first, nor once decided', async () => {
    f = consoleFixture(() => ({ store: createMemoryStore(), close: () => {} }));
    f.registry.register({
      name: 'refund.send',
      title: 'Refund',
      description: 'Refunds a customer.',
      sideEffect: 'send',
      inputSchema: { type: 'object', properties: { order: { type: 'string' } }, required: ['order'] },
      prepare: (input) => input,
      deliver: () => 'refunded',
    });
    const first = (await f.registry.propose(
      'refund.send',
      { order: '1001' },
      { actor: 'bot' },
    )) as ConfirmRequired;
    const second = (await f.registry.propose(
      'refund.send',
      { order: '1001' },
      { actor: 'bot' },
    )) as ConfirmRequired;
    expect((await cardOf(first.confirmationId)).alikeText).toBeUndefined();
    expect((await cardOf(second.confirmationId)).alikeText).toBe(
      `another pending Refund with the same payload: #${first.confirmationId}`,
    );
    expect((await cardOf(second.confirmationId, 'zh-CN')).alikeText).toBe(
      `另一条待确认的 Refund 内容相同：#${first.confirmationId}`,
    );
    await f.registry.reject(second.confirmationId, { rejectedBy: 'lead-li' });
    expect((await cardOf(second.confirmationId)).alikeText).toBeUndefined();
  });

  it('on a refund with the same ref as a pending one, naming the reference, in English and Chinese', async () => {
    f = consoleFixture(() => ({ store: createMemoryStore(), close: () => {} }));
    f.registry.register({
      name: 'refund.send',
      title: 'Refund',
      description: 'Refunds a customer.',
      sideEffect: 'send',
      inputSchema: { type: 'object', properties: { order: { type: 'string' } }, required: ['order'] },
      prepare: (input) => input,
      deliver: () => 'refunded',
    });
    const first = (await f.registry.propose(
      'refund.send',
      { order: '7 (20 EUR)' },
      { actor: 'bot', ref: 'ORDER-7' },
    )) as ConfirmRequired;
    const second = (await f.registry.propose(
      'refund.send',
      { order: '7 (25 EUR)' },
      { actor: 'bot', ref: 'ORDER-7' },
    )) as ConfirmRequired;
    expect((await cardOf(second.confirmationId)).alikeText).toBe(
      `another pending Refund with the same reference ORDER-7: #${first.confirmationId}`,
    );
    expect((await cardOf(second.confirmationId, 'zh-CN')).alikeText).toBe(
      `另一条待确认的 Refund 引用相同（ORDER-7）：#${first.confirmationId}`,
    );
  });
});

import fc from 'fast-check';
import { runPlan, toWireName } from 'graded-tools';
import { describe, expect, it } from 'vitest';
import { desk } from './setup.js';

/** Names a model or a plan might try to reach the confirmation path by. */
const tries = (id: string) => [
  'confirm',
  'registry.confirm',
  'confirmations.confirm',
  'message.confirm',
  'message__confirm',
  'message.send',
  'message__send',
  toWireName('message.send'),
  'retry',
  'markDelivered',
  'recoverStale',
  id,
  `confirm.${id}`,
];

describe('the confirmation path is out of reach of the model and of plans', () => {
  it('the model exit cannot confirm, retry or even prepare a send, by any name', async () => {
    const { registry, ask, store, data } = desk();
    const asked = await ask();
    for (const name of tries(asked.confirmationId)) {
      const args = { confirmationId: asked.confirmationId, approvedBy: 'model', digest: asked.digest };
      const result = await registry.invokeReadOnly(name, JSON.stringify(args), {
        scope: 'desk',
        flags: { kb: true },
      });
      expect(result).toMatchObject({ ok: false, code: 'UNKNOWN_TOOL' });
    }
    expect((await store.list()).confirmations.map((c) => c.status)).toEqual(['pending']);
    expect(data.outbox).toEqual([]);
    const offered = registry.toFunctionSchemas({ scope: 'desk', flags: { kb: true } }).map((s) => s.name);
    expect(offered.sort()).toEqual(['kb__search', 'session__fetch']);
  });

  it('a plan step cannot confirm, and a plan step naming the send tool prepares nothing', async () => {
    const { registry, ask, store, data } = desk();
    const asked = await ask();
    const result = await runPlan(
      {
        name: 'sneaky',
        steps: tries(asked.confirmationId).map((tool) => ({
          tool,
          input: {
            conversationId: 'c-1001',
            text: 'x',
            confirmationId: asked.confirmationId,
            approvedBy: 'plan',
          },
        })),
      },
      {},
      { registry, scope: 'desk', actor: 'planner' },
    );
    expect(result.steps.every((s) => s.result?.ok === false)).toBe(true);
    expect(result.steps.map((s) => s.result && !s.result.ok && s.result.code)).toContain(
      'SEND_REQUIRES_CONFIRM',
    );
    expect((await store.list()).confirmations.map((c) => c.id)).toEqual([asked.confirmationId]);
    expect((await store.get(asked.confirmationId))?.status).toBe('pending');
    expect(data.outbox).toEqual([]);
  });

  it('nothing the model sends, under any name or arguments, delivers or changes a confirmation (property)', async () => {
    const { registry, ask, store, data } = desk();
    const asked = await ask();
    const names = fc.oneof(
      fc.constantFrom(...tries(asked.confirmationId)),
      fc.string({ maxLength: 40 }),
      fc.stringMatching(/^[a-z]{1,8}(__[a-z]{1,8}){1,2}$/),
    );
    const args = fc.oneof(
      fc.json(),
      fc.constant(JSON.stringify({ confirmationId: asked.confirmationId, approvedBy: 'model' })),
      fc.dictionary(fc.string({ maxLength: 10 }), fc.jsonValue()),
    );
    await fc.assert(
      fc.asyncProperty(names, args, fc.boolean(), async (name, input, autonomous) => {
        const viaModel = await registry.invokeReadOnly(name, input, { scope: 'desk', flags: { kb: true } });
        expect('requiresConfirm' in viaModel && viaModel.requiresConfirm).toBeFalsy();
        const viaApp = await registry.invoke(name, input, { scope: 'desk', autonomous });
        if (autonomous) expect('confirmationId' in viaApp).toBe(false);
      }),
      { numRuns: 150 },
    );
    expect((await store.get(asked.confirmationId))?.status).toBe('pending');
    expect(data.outbox).toEqual([]);
  });
});

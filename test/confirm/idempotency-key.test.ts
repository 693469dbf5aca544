import { type ConfirmRequired, createMemoryStore, type RegistryEvent, ToolRegistry } from 'graded-tools';
import { describe, expect, it } from 'vitest';
import { sendTool } from '../helpers/tools.js';

function registryWith(options: ConstructorParameters<typeof ToolRegistry>[0] = {}) {
  const events: RegistryEvent[] = [];
  const refund = sendTool('refund.issue', { rules: [{ limit: { calls: 1, per: 'day', by: 'actor' } }] });
  const mail = sendTool('message.send');
  const registry = new ToolRegistry({ onEvent: (e) => void events.push(e), ...options })
    .register(refund.tool)
    .register(mail.tool);
  return { registry, refund, events };
}

const asking = { actor: 'agent:desk-bot', idempotencyKey: 'refund-order-1001' };

describe('propose with an idempotencyKey: one proposal per intent', () => {
  it('answers a second call with the same key with the first confirmation, storing and counting nothing', async () => {
    const { registry, refund } = registryWith();
    const first = await registry.propose('refund.issue', { text: 'order 1001' }, asking);
    expect(first).toMatchObject({ ok: true, requiresConfirm: true });
    const second = await registry.propose('refund.issue', { text: 'order 1001' }, asking);
    // The tool's limit is 1 call a day: a second count would have refused it.
    expect(second).toEqual(first);
    expect(refund.prepared).toHaveLength(1);
    const page = await registry.confirmations.list({});
    expect(page.ok && page.confirmations).toHaveLength(1);
    // Another key is another intent: it is counted, and the limit refuses it.
    const other = await registry.propose(
      'refund.issue',
      { text: 'order 1001' },
      { ...asking, idempotencyKey: 'k2' },
    );
    expect(other).toMatchObject({ ok: false, code: 'LIMIT_REACHED' });
  });

  it('scopes the key to the tool and the actor', async () => {
    const { registry } = registryWith();
    const first = (await registry.propose('message.send', { text: 'a' }, asking)) as ConfirmRequired;
    const otherActor = (await registry.propose(
      'message.send',
      { text: 'a' },
      { ...asking, actor: 'agent:other' },
    )) as ConfirmRequired;
    const otherTool = (await registry.propose('refund.issue', { text: 'a' }, asking)) as ConfirmRequired;
    expect(otherActor.confirmationId).not.toBe(first.confirmationId);
    expect(otherTool.confirmationId).not.toBe(first.confirmationId);
  });

  it('answers the decided confirmation to a retry after the decision, not a new proposal', async () => {
    const { registry, refund } = registryWith();
    const first = (await registry.propose('refund.issue', { text: 'x' }, asking)) as ConfirmRequired;
    const rejected = await registry.reject(first.confirmationId, { rejectedBy: 'li' });
    expect(rejected.ok).toBe(true);
    const again = (await registry.propose('refund.issue', { text: 'x' }, asking)) as ConfirmRequired;
    expect(again.confirmationId).toBe(first.confirmationId);
    expect(refund.prepared).toHaveLength(1);
  });

  it('refuses the same key with another input as IDEMPOTENCY_CONFLICT, storing nothing', async () => {
    const { registry } = registryWith();
    await registry.propose('refund.issue', { text: 'order 1001' }, asking);
    const clash = await registry.propose('refund.issue', { text: 'order 2002' }, asking);
    expect(clash).toMatchObject({ ok: false, code: 'IDEMPOTENCY_CONFLICT' });
    const page = await registry.confirmations.list({});
    expect(page.ok && page.confirmations).toHaveLength(1);
  });

  it('refuses a key that is not a non-empty single-line string of at most 256 characters', async () => {
    const { registry } = registryWith();
    for (const idempotencyKey of ['', 'x'.repeat(257), 'a\nb', 42]) {
      const answer = await registry.propose('message.send', { text: 'a' }, {
        ...asking,
        idempotencyKey,
      } as never);
      expect(answer).toMatchObject({ ok: false, code: 'INVALID_OPTION' });
    }
  });

  it('refuses the key on a store that cannot keep keys, saying which capability it lacks', async () => {
    const full = createMemoryStore();
    const { findKeyed: _, ...bare } = full as typeof full & { findKeyed?: unknown };
    const { registry } = registryWith({ confirmations: bare as never });
    const answer = await registry.propose('message.send', { text: 'a' }, asking);
    expect(answer).toMatchObject({ ok: false, code: 'INVALID_OPTION' });
    expect((answer as unknown as { error: string }).error).toContain('idempotency');
    // Without a key, the same store proposes as before.
    const plain = await registry.propose('message.send', { text: 'a' }, { actor: 'agent:desk-bot' });
    expect(plain.ok).toBe(true);
  });

  it('answers the same bundle to a second proposeBundle with the same key, and a conflict for other steps', async () => {
    const { registry, refund } = registryWith();
    const steps = [
      { tool: 'refund.issue', input: { text: 'order 1001' } },
      { tool: 'message.send', input: { text: 'refunded' } },
    ];
    const first = await registry.proposeBundle(steps, asking);
    expect(first.ok).toBe(true);
    const second = await registry.proposeBundle(steps, asking);
    expect(second).toEqual(first);
    expect(refund.prepared).toHaveLength(1);
    const page = await registry.confirmations.list({});
    expect(page.ok && page.confirmations).toHaveLength(2);
    const clash = await registry.proposeBundle([steps[1] as (typeof steps)[number]], asking);
    expect(clash).toMatchObject({ ok: false, code: 'IDEMPOTENCY_CONFLICT' });
  });

  it('answers one confirmation to concurrent calls with the same key', async () => {
    const { registry, refund } = registryWith();
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => registry.propose('refund.issue', { text: 'a' }, asking)),
    );
    // The limit (1 a day) would refuse all but one if each were counted.
    expect(answers.every((answer) => answer.ok)).toBe(true);
    const ids = new Set(answers.map((answer) => (answer as ConfirmRequired).confirmationId));
    expect(ids.size).toBe(1);
    expect(refund.prepared).toHaveLength(1);
    const page = await registry.confirmations.list({});
    expect(page.ok && page.confirmations).toHaveLength(1);
  });
});

/**
 * The store as a second process sees it: its first `findKeyed` finds nothing (the winner had not
 * stored yet), so it proposes, counts and loses the race at `create`.
 */
function lateStore(store: ReturnType<typeof createMemoryStore>) {
  let lies = 1;
  return new Proxy(store, {
    get(target, name) {
      if (name === 'findKeyed' && lies > 0)
        return async () => {
          lies -= 1;
          return undefined;
        };
      const value = Reflect.get(target, name, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

describe('a proposal that loses the race for its key', () => {
  const counting = () =>
    sendTool('refund.issue', {
      rules: [{ limit: { calls: 2, per: 'day', by: 'actor', count: 'delivered' } }],
    });

  it('answers the winner, and what it counted toward delivery is given back by the one who counted it', async () => {
    const store = createMemoryStore();
    const winner = new ToolRegistry({ confirmations: store }).register(counting().tool);
    const loser = new ToolRegistry({ confirmations: lateStore(store) }).register(counting().tool);
    const first = await winner.propose('refund.issue', { text: 'order 1001' }, asking);
    const second = await loser.propose('refund.issue', { text: 'order 1001' }, asking);
    expect(second).toEqual(first);
    // Two a day: the winner's count and one more. Had the loser's stayed counted, this one is refused.
    const other = await winner.propose('refund.issue', { text: 'b' }, { ...asking, idempotencyKey: 'k2' });
    expect(other).toMatchObject({ ok: true, requiresConfirm: true });
    const third = await winner.propose('refund.issue', { text: 'c' }, { ...asking, idempotencyKey: 'k3' });
    expect(third).toMatchObject({ ok: false, code: 'LIMIT_REACHED' });
  });

  it('a bundle gives back what its steps counted once, not once more for its first step', async () => {
    const store = createMemoryStore();
    const winner = new ToolRegistry({ confirmations: store }).register(counting().tool);
    const loser = new ToolRegistry({ confirmations: lateStore(store) }).register(counting().tool);
    const steps = [{ tool: 'refund.issue', input: { text: 'order 1001' } }];
    const first = await winner.proposeBundle(steps, asking);
    expect(first).toMatchObject({ ok: true });
    const second = await loser.proposeBundle(steps, asking);
    expect(second).toEqual(first);
    // The winner's one count stands: one more fits, the next does not (a second give-back would let it).
    const other = await winner.propose('refund.issue', { text: 'b' }, { ...asking, idempotencyKey: 'k2' });
    expect(other).toMatchObject({ ok: true, requiresConfirm: true });
    const third = await winner.propose('refund.issue', { text: 'c' }, { ...asking, idempotencyKey: 'k3' });
    expect(third).toMatchObject({ ok: false, code: 'LIMIT_REACHED' });
  });
});

import { createMemoryStore, describeDecision, ToolDefinitionError, ToolRegistry } from 'graded-tools';
import type { ConfirmationStore } from 'graded-tools/store';
import { describe, expect, it } from 'vitest';
import { expectConfirmRequired, recordingSendTool, registryWith, T0 } from './setup.js';

const HOLD = 30_000;

/** A held mail tool in a registry with a hand-moved clock, and a pending confirmation of it. */
async function heldSend(options: { store?: ConfirmationStore; holdMs?: number } = {}) {
  const mail = recordingSendTool('mail.send', undefined, { holdMs: options.holdMs ?? HOLD });
  const { registry, clock, events } = registryWith(mail.tool, {}, options.store);
  const asked = expectConfirmRequired(
    await registry.invoke('mail.send', { text: 'Refund sent.' }, { actor: 'agent-7' }),
  );
  const actions = () => events.flatMap((e) => (e.type === 'confirmation' ? [e.action] : []));
  return { registry, clock, deliveries: mail.deliveries, id: asked.confirmationId, actions };
}

describe('holdMs: an undo window before a confirmed send is delivered', () => {
  it('is checked at register: a positive number of ms up to a day, on send tools only', () => {
    const held = (holdMs: unknown) => recordingSendTool('mail.send', undefined, { holdMs } as never).tool;
    const registry = new ToolRegistry();
    expect(registry.register(held(1)).get('mail.send')?.holdMs).toBe(1);
    for (const bad of [0, -1, Number.NaN, 24 * 3_600_000 + 1, '30000'])
      expect(() => new ToolRegistry().register(held(bad))).toThrow(ToolDefinitionError);
    const read = {
      name: 'kb.read',
      description: 'Read.',
      sideEffect: 'read',
      inputSchema: { type: 'object' },
    };
    expect(() => new ToolRegistry().register({ ...read, run: () => 1, holdMs: 5 } as never)).toThrow(
      /only for `send` tools/,
    );
    expect(new ToolRegistry().register(recordingSendTool().tool).get('mail.send')).not.toHaveProperty(
      'holdMs',
    );
  });

  it('is refused at register on a store that keeps no held sends', () => {
    const { dueScheduled: _d, deliverDue: _x, cancel: _c, ...bare } = createMemoryStore();
    const tool = recordingSendTool('mail.send', undefined, { holdMs: HOLD }).tool;
    expect(() => new ToolRegistry({ confirmations: bare }).register(tool)).toThrow(/holdMs/);
  });

  it('a confirm answers SCHEDULED with deliverAt, and nothing is delivered yet', async () => {
    const { registry, deliveries, id, actions } = await heldSend();
    const answer = await registry.confirm(id, { approvedBy: 'lead-li' });
    expect(answer).toMatchObject({
      ok: false,
      code: 'SCHEDULED',
      confirmation: { status: 'scheduled', attempt: 0, deliverAt: new Date(T0 + HOLD).toISOString() },
    });
    expect(!answer.ok && answer.error).toBe(
      `Approved: it will be sent at ${new Date(T0 + HOLD).toISOString()} unless someone cancels it.`,
    );
    expect(deliveries).toEqual([]);
    expect(actions()).toEqual(['created', 'confirmed', 'scheduled']);
    // A second confirm finds it decided.
    expect(await registry.confirm(id, { approvedBy: 'lead-chen' })).toMatchObject({
      code: 'ALREADY_DECIDED',
    });
    const zh = await registry.confirmations.get(id);
    expect(zh.ok && describeDecision(zh.confirmation, 'zh-CN')).toContain('撤销');
  });

  it('the sweep delivers it once its time has come, once, with the approver named', async () => {
    const { registry, clock, deliveries, id, actions } = await heldSend();
    await registry.confirm(id, { approvedBy: 'lead-li' });
    clock.advance(HOLD - 1);
    expect(await registry.sweep()).toMatchObject({ ok: true, delivered: [] });
    expect(deliveries).toEqual([]);
    clock.advance(1);
    const swept = await registry.sweep();
    expect(swept.ok && swept.delivered.map((c) => [c.id, c.status])).toEqual([[id, 'delivered']]);
    expect(deliveries).toEqual([
      { payload: { text: 'Refund sent.' }, confirmationId: id, approvedBy: 'lead-li' },
    ]);
    expect(await registry.sweep()).toMatchObject({ ok: true, delivered: [] });
    expect(deliveries).toHaveLength(1);
    expect(actions()).toEqual(['created', 'confirmed', 'scheduled', 'delivered']);
    // Too late to take back.
    expect(await registry.cancel(id, { by: 'lead-li' })).toMatchObject({
      ok: false,
      code: 'ALREADY_DECIDED',
      confirmation: { status: 'delivered' },
    });
  });

  it('the approver cancels it: cancelled, with who and why, never delivered', async () => {
    const { registry, clock, deliveries, id, actions } = await heldSend();
    await registry.confirm(id, { approvedBy: 'lead-li' });
    clock.advance(5_000);
    const cancelled = await registry.cancel(id, { by: 'lead-li', reason: 'wrong customer' });
    expect(cancelled).toMatchObject({ ok: true, confirmation: { status: 'cancelled' } });
    expect(cancelled.ok && cancelled.confirmation.history.at(-1)).toMatchObject({
      status: 'cancelled',
      by: 'lead-li',
      note: 'wrong customer',
    });
    expect(cancelled.ok && describeDecision(cancelled.confirmation)).toBe(
      'A person cancelled this after it was approved: wrong customer. It was not sent.',
    );
    clock.advance(HOLD);
    expect(await registry.sweep()).toMatchObject({ ok: true, delivered: [] });
    expect(deliveries).toEqual([]);
    expect(actions()).toEqual(['created', 'confirmed', 'scheduled', 'cancelled']);
    expect(await registry.cancel(id, { by: 'lead-li' })).toMatchObject({ code: 'ALREADY_DECIDED' });
    const waited = await registry.confirmations.waitFor(id, { timeoutMs: 0 });
    expect(waited).toMatchObject({ ok: true, confirmation: { status: 'cancelled' } });
  });

  it('anyone else needs authorize, asked once; a refusal changes nothing', async () => {
    const { registry, id } = await heldSend();
    await registry.confirm(id, { approvedBy: 'lead-li' });
    expect(await registry.cancel(id, { by: 'agent-7' })).toMatchObject({ ok: false, code: 'FORBIDDEN' });
    const asked: string[] = [];
    const no = await registry.cancel(id, {
      by: 'lead-wu',
      authorize: (_c, person) => {
        asked.push(person.id);
        return false;
      },
    });
    expect(no).toMatchObject({ ok: false, code: 'FORBIDDEN', confirmation: { status: 'scheduled' } });
    const yes = await registry.cancel(id, {
      by: 'lead-wu',
      authorize: (c, person) => {
        asked.push(person.id);
        return c.status === 'scheduled';
      },
    });
    expect(yes).toMatchObject({ ok: true, confirmation: { status: 'cancelled' } });
    expect(asked).toEqual(['lead-wu', 'lead-wu']);
    const can = await registry.confirmations.get(id);
    expect(
      can.ok &&
        (await registry.confirmations.canDecide(can.confirmation, {
          kind: 'cancel',
          person: { id: 'lead-li' },
        })),
    ).toMatchObject({ ok: false, code: 'ALREADY_DECIDED' });
  });

  it('waitFor does not settle on scheduled: it hears the delivery', async () => {
    const { registry, clock, id } = await heldSend();
    await registry.confirm(id, { approvedBy: 'lead-li' });
    const waiting = registry.confirmations.waitFor(id);
    clock.advance(HOLD);
    await registry.sweep();
    expect(await waiting).toMatchObject({ ok: true, confirmation: { status: 'delivered' } });
  });

  it('cancel refuses what it cannot read, and a confirmation that was never held', async () => {
    const { registry, id } = await heldSend();
    expect(await registry.cancel(id, { by: '' } as never)).toMatchObject({ code: 'INVALID_OPTION' });
    expect(await registry.cancel('nope', { by: 'lead-li' })).toMatchObject({
      code: 'CONFIRMATION_NOT_FOUND',
    });
    // Still pending: nobody approved sending it, so not even the asker may cancel it without authorize.
    expect(await registry.cancel(id, { by: 'agent-7' })).toMatchObject({ code: 'FORBIDDEN' });
    expect(await registry.cancel(id, { by: 'agent-7', authorize: () => true })).toMatchObject({
      code: 'ALREADY_DECIDED',
      confirmation: { status: 'pending' },
    });
  });

  it('a tool without holdMs delivers at confirm, as before', async () => {
    const mail = recordingSendTool();
    const { registry } = registryWith(mail.tool);
    const asked = expectConfirmRequired(await registry.invoke('mail.send', { text: 'x' }, { actor: 'a' }));
    expect(await registry.confirm(asked.confirmationId, { approvedBy: 'b' })).toMatchObject({
      ok: true,
      confirmation: { status: 'delivered', attempt: 1 },
    });
    expect(mail.deliveries).toHaveLength(1);
  });
});

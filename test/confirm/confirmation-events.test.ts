import { describe, expect, it } from 'vitest';
import { desk } from './setup.js';

describe('confirmation events', () => {
  it('reports each step with id, tool, who and when, and never the payload', async () => {
    const { registry, ask, events, clock } = desk();
    const asked = await ask('A secret refund note');
    clock.advance(5);
    await registry.confirm(asked.confirmationId, { approvedBy: 'lead-2' });
    const steps = events.filter((e) => e.type === 'confirmation');
    expect(steps).toEqual([
      {
        type: 'confirmation',
        action: 'created',
        confirmationId: asked.confirmationId,
        tool: 'message.send',
        by: 'agent-7',
        at: clock.now() - 5,
      },
      {
        type: 'confirmation',
        action: 'confirmed',
        confirmationId: asked.confirmationId,
        tool: 'message.send',
        by: 'lead-2',
        at: clock.now(),
      },
      {
        type: 'confirmation',
        action: 'delivered',
        confirmationId: asked.confirmationId,
        tool: 'message.send',
        at: clock.now(),
      },
    ]);
    expect(JSON.stringify(events)).not.toContain('secret');
  });

  it('keeps the invoke event alongside: the person’s call ends in confirm_required', async () => {
    const { ask, events } = desk();
    await ask();
    expect(events.filter((e) => e.type === 'invoke')).toMatchObject([
      { caller: 'person', outcome: 'confirm_required', tool: 'message.send' },
    ]);
  });

  it('never lets a throwing or rejecting listener change an outcome', async () => {
    for (const onEvent of [
      () => {
        throw new Error('audit sink down');
      },
      () => Promise.reject(new Error('audit sink down')),
    ]) {
      const { registry, ask, data } = desk({ onEvent });
      const asked = await ask();
      await expect(registry.confirm(asked.confirmationId, { approvedBy: 'lead-2' })).resolves.toMatchObject({
        ok: true,
      });
      expect(data.outbox).toHaveLength(1);
    }
  });
});

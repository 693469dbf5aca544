import { createMemoryStore } from 'graded-tools';
import { describe, expect, it } from 'vitest';
import { desk } from './setup.js';

describe('registry.confirmations', () => {
  it('gets one confirmation, or CONFIRMATION_NOT_FOUND', async () => {
    const { registry, ask } = desk();
    const asked = await ask();
    await expect(registry.confirmations.get(asked.confirmationId)).resolves.toMatchObject({
      ok: true,
      confirmation: { id: asked.confirmationId, status: 'pending', digest: asked.digest },
    });
    await expect(registry.confirmations.get('AAAAAAAAAAAAAAAAAAAAAA')).resolves.toMatchObject({
      code: 'CONFIRMATION_NOT_FOUND',
    });
    await expect(registry.confirmations.get('not an id!')).resolves.toMatchObject({
      code: 'CONFIRMATION_NOT_FOUND',
    });
  });

  it('lists newest first by status and tool; pending means still confirmable', async () => {
    const { registry, ask, clock } = desk();
    const a = await ask('a');
    clock.advance(1_000);
    const b = await ask('b');
    clock.advance(1_000);
    const c = await ask('c');
    await registry.reject(b.confirmationId, { rejectedBy: 'lead-2' });
    const all = await registry.confirmations.list();
    expect(all.ok && all.confirmations.map((x) => x.id)).toEqual([
      c.confirmationId,
      b.confirmationId,
      a.confirmationId,
    ]);
    const pending = await registry.confirmations.list({ status: 'pending', tool: 'message.send', limit: 10 });
    expect(pending.ok && pending.confirmations.map((x) => x.id)).toEqual([
      c.confirmationId,
      a.confirmationId,
    ]);
    // `a` expires first; before any sweep marks it, it is no longer offered as pending.
    clock.advance(3_600_000 - 2_000);
    const live = await registry.confirmations.list({ status: 'pending' });
    expect(live.ok && live.confirmations.map((x) => x.id)).toEqual([c.confirmationId]);
    const none = await registry.confirmations.list({ tool: 'kb.search' });
    expect(none.ok && none.confirmations).toEqual([]);
  });

  it('refuses a status that does not exist, and has no way to change anything', async () => {
    const { registry } = desk();
    await expect(registry.confirmations.list({ status: 'approved' as never })).resolves.toMatchObject({
      code: 'INVALID_OPTION',
    });
    // Reads only: checkEdit checks an edit without claiming; watch, tool and bundle change nothing either.
    expect(Object.keys(registry.confirmations).sort()).toEqual([
      'bundle',
      'canDecide',
      'checkEdit',
      'get',
      'list',
      'tool',
      'waitFor',
      'watch',
    ]);
    expect(Object.isFrozen(registry.confirmations)).toBe(true);
  });

  it('answers STORE_FAILED when the store is down', async () => {
    const store = {
      ...createMemoryStore(),
      get: () => Promise.reject(new Error('down')),
      list: () => Promise.reject(new Error('down')),
    };
    const { registry } = desk({ confirmations: store });
    await expect(registry.confirmations.get('AAAAAAAAAAAAAAAAAAAAAA')).resolves.toMatchObject({
      code: 'STORE_FAILED',
    });
    await expect(registry.confirmations.list()).resolves.toMatchObject({ code: 'STORE_FAILED' });
  });
});

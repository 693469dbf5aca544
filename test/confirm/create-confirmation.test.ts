import { createMemoryStore, payloadDigest, ToolDefinitionError, ToolRegistry } from 'graded-tools';
import { describe, expect, it } from 'vitest';
import { desk, recordingSendTool, registryWith, T0 } from './setup.js';

/** `[1, <hole>, 3]`, built without a sparse literal. */
function holey(): unknown[] {
  const list: unknown[] = new Array(3);
  list[0] = 1;
  list[2] = 3;
  return list;
}

describe("a person's invoke of a send tool", () => {
  it('stores a pending confirmation and answers with its id, digest and expiry; nothing is delivered', async () => {
    const { ask, store, data } = desk();
    const asked = await ask();
    expect(asked.confirmationId).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(asked.confirmPayload).toEqual({ to: 'ana@example.com', text: 'Your refund is on its way.' });
    expect(asked.digest).toBe(payloadDigest('message.send', asked.confirmPayload));
    expect(asked.expiresAt).toBe(new Date(T0 + 3_600_000).toISOString());
    expect(await store.get(asked.confirmationId)).toMatchObject({
      tool: 'message.send',
      status: 'pending',
      input: { conversationId: 'c-1001', text: 'Your refund is on its way.' },
      payload: asked.confirmPayload,
      digest: asked.digest,
      actor: 'agent-7',
      scope: 'desk',
      attempt: 0,
      createdAt: new Date(T0).toISOString(),
      history: [{ at: new Date(T0).toISOString(), status: 'pending', by: 'agent-7' }],
    });
    expect(data.outbox).toEqual([]);
  });

  it('gives every confirmation a different, unguessable id', async () => {
    const { ask } = desk();
    const ids = new Set<string>();
    for (let i = 0; i < 50; i++) ids.add((await ask(`m${i}`)).confirmationId);
    expect(ids.size).toBe(50);
  });

  it('uses confirmationTtlMs and refuses one that makes no sense', async () => {
    const { ask } = desk({ confirmationTtlMs: 60_000 });
    expect((await ask()).expiresAt).toBe(new Date(T0 + 60_000).toISOString());
    for (const confirmationTtlMs of [0, -1, Number.NaN, Number.POSITIVE_INFINITY, 400 * 86_400_000]) {
      expect(() => new ToolRegistry({ confirmationTtlMs })).toThrow(ToolDefinitionError);
    }
  });

  it.each([
    ['a Date', () => ({ when: new Date(0) })],
    ['a bigint', () => ({ n: 1n })],
    [
      'a cycle',
      () => {
        const a: Record<string, unknown> = {};
        a.self = a;
        return a;
      },
    ],
    ['a function', () => ({ f: () => 1 })],
    ['NaN', () => ({ n: Number.NaN })],
    ['a Map', () => new Map()],
    ['an array hole', () => ({ list: holey() })],
    [
      'a getter that throws',
      () => ({
        get boom() {
          throw new Error('no');
        },
      }),
    ],
  ])('fails with RUN_FAILED when prepare returns %s, storing nothing', async (_what, make) => {
    const store = createMemoryStore();
    const { tool, deliveries } = recordingSendTool('mail.send', () => 1, { prepare: make });
    const { registry } = registryWith(tool, {}, store);
    const result = await registry.invoke('mail.send', {});
    expect(result).toMatchObject({ ok: false, code: 'RUN_FAILED' });
    expect(result.ok ? '' : result.error).toMatch(/JSON/);
    expect((await store.list()).confirmations).toEqual([]);
    expect(deliveries).toEqual([]);
  });

  it('stores, shows and digests one snapshot, even when prepare returns a getter that changes', async () => {
    let reads = 0;
    const { tool } = recordingSendTool('mail.send', () => 1, {
      prepare: () => ({
        get text() {
          reads++;
          return `read ${reads}`;
        },
      }),
    });
    const { registry } = registryWith(tool);
    const asked = await registry.invoke('mail.send', {});
    expect(asked).toMatchObject({ ok: true, confirmPayload: { text: 'read 1' } });
    if (!asked.ok || !asked.requiresConfirm) return;
    const stored = await registry.confirmations.get(asked.confirmationId);
    expect(stored.ok && stored.confirmation.payload).toEqual({ text: 'read 1' });
    expect(asked.digest).toBe(payloadDigest('mail.send', { text: 'read 1' }));
  });

  it('leaves out undefined fields, as JSON does', async () => {
    const { tool } = recordingSendTool('mail.send', () => 1, { prepare: () => ({ to: 'x', cc: undefined }) });
    const { registry } = registryWith(tool);
    const asked = await registry.invoke('mail.send', {});
    expect(asked.ok && asked.requiresConfirm && asked.confirmPayload).toEqual({ to: 'x' });
  });

  it('answers STORE_FAILED when the store cannot save it, and never throws', async () => {
    const broken = { ...createMemoryStore(), create: () => Promise.reject(new Error('disk full')) };
    const { tool } = recordingSendTool();
    const { registry, events } = registryWith(tool, {}, broken);
    const result = await registry.invoke('mail.send', {});
    expect(result).toMatchObject({ ok: false, code: 'STORE_FAILED' });
    expect(result.ok ? '' : result.error).toContain('disk full');
    expect(events.filter((e) => e.type === 'invoke')).toMatchObject([
      { outcome: 'failed', code: 'STORE_FAILED' },
    ]);
    const throwing = {
      ...createMemoryStore(),
      create: () => {
        throw new Error('sync throw');
      },
    };
    const other = registryWith(recordingSendTool().tool, {}, throwing as never);
    await expect(other.registry.invoke('mail.send', {})).resolves.toMatchObject({ code: 'STORE_FAILED' });
  });

  it('refuses an actor it could not record faithfully', async () => {
    const { registry } = registryWith(recordingSendTool().tool);
    for (const actor of ['', 'a\u0000b', 'evil\u202Eoc.exe', 'x'.repeat(300)]) {
      await expect(registry.invoke('mail.send', {}, { actor })).resolves.toMatchObject({
        code: 'INVALID_OPTION',
      });
    }
    await expect(
      registry.invoke('mail.send', {}, { actor: '王小明 <wang@example.com>' }),
    ).resolves.toMatchObject({
      ok: true,
    });
  });
});

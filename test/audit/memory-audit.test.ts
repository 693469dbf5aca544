import { createMemoryStore, ToolRegistry } from 'graded-tools';
import { describe, expect, it } from 'vitest';
import { entriesOf, expectEmptyHeadVerifies, expectEveryChangeLogged, headKeys } from './audit-scenarios.js';

describe('audit log on the memory store', () => {
  it('verifies a head signed on the empty log, and catches one at 0 naming another hash', async () => {
    await expectEmptyHeadVerifies(createMemoryStore());
  });

  it('records each approval toward a quorum and a limit that refused, and verifies', async () => {
    const registry = new ToolRegistry()
      .register({
        name: 'wire.send',
        description: 'Wire money.',
        sideEffect: 'send',
        inputSchema: { type: 'object', properties: {} },
        rules: [{ approvals: 2 }],
        prepare: () => ({ amount: 1 }),
        deliver: () => 'sent',
      })
      .register({
        name: 'kb.search',
        description: 'Search.',
        sideEffect: 'read',
        inputSchema: { type: 'object', properties: {} },
        rules: [{ name: 'one a day', limit: { calls: 1, per: 'day', by: 'actor' } }],
        run: () => [],
      });
    const asked = await registry.invoke('wire.send', {}, { actor: 'agent-7' });
    if (!asked.ok || !asked.requiresConfirm) throw new Error('expected a confirmation');
    expect(
      await registry.confirm(asked.confirmationId, { approvedBy: 'ana', digest: asked.digest }),
    ).toMatchObject({
      code: 'AWAITING_APPROVALS',
    });
    expect(
      (await registry.confirm(asked.confirmationId, { approvedBy: 'bo', digest: asked.digest })).ok,
    ).toBe(true);
    expect((await registry.invoke('kb.search', {}, { actor: 'agent-7' })).ok).toBe(true);
    expect(await registry.invoke('kb.search', {}, { actor: 'agent-7' })).toMatchObject({
      code: 'LIMIT_REACHED',
    });
    const entries = await entriesOf(registry);
    expect(entries.map((e) => [e.action, e.by, e.detail?.approvals])).toEqual([
      ['created', 'agent-7', 0],
      ['approved', 'ana', 1],
      ['confirmed', 'bo', 2],
      ['delivered', undefined, 2],
      ['limit', 'agent-7', undefined],
    ]);
    expect(entries[1]?.detail).toMatchObject({ approvalsNeeded: 2 });
    const { privateKey, publicKey } = headKeys();
    const signedHead = await registry.audit.signHead(privateKey);
    expect(await registry.audit.verify({ signedHead, publicKey })).toEqual({
      ok: true,
      entries: 5,
      head: { seq: 5, hash: entries[4]?.hash },
      unsequenced: 0,
    });
  });
});

describe('audit log on the memory store: a change and its entry are one step', () => {
  it('refuses a decision it cannot record (its log full): AUDIT_FAILED, nothing sent, still decidable', async () => {
    const store = createMemoryStore({ maxAuditEntries: 1 });
    let deliveries = 0;
    const registry = new ToolRegistry({ confirmations: store }).register({
      name: 'message.send',
      description: 'Email a customer.',
      sideEffect: 'send',
      inputSchema: { type: 'object', properties: {} },
      prepare: () => ({ text: 'Refunded.' }),
      deliver: () => {
        deliveries++;
        return 'sent';
      },
    });
    const asked = await registry.invoke('message.send', {}, { actor: 'agent-7' });
    if (!asked.ok || !asked.requiresConfirm) throw new Error('expected a confirmation');
    const confirmed = await registry.confirm(asked.confirmationId, {
      approvedBy: 'ana',
      digest: asked.digest,
    });
    expect(confirmed).toMatchObject({ ok: false, code: 'AUDIT_FAILED' });
    expect(await registry.reject(asked.confirmationId, { rejectedBy: 'ana' })).toMatchObject({
      code: 'AUDIT_FAILED',
    });
    expect(await registry.invoke('message.send', {}, { actor: 'agent-7' })).toMatchObject({
      code: 'AUDIT_FAILED',
    });
    expect(deliveries).toBe(0);
    expect(await store.get(asked.confirmationId)).toMatchObject({ status: 'pending', attempt: 0 });
    expect((await store.list({})).confirmations).toHaveLength(1);
    expect(await expectEveryChangeLogged(store)).toBe(1);
    expect(() => createMemoryStore({ maxAuditEntries: 0 })).toThrow(RangeError);
  });

  it('logs every change of every confirmation, one entry each, over many decisions', async () => {
    const store = createMemoryStore();
    const registry = new ToolRegistry({ confirmations: store, confirmationTtlMs: 1 }).register({
      name: 'wire.send',
      description: 'Wire money.',
      sideEffect: 'send',
      inputSchema: { type: 'object', properties: { n: { type: 'number' } } },
      rules: [{ approvals: 2, when: 'input.n > 5' }],
      prepare: (input) => ({ n: input.n }),
      deliver: () => 'sent',
    });
    for (let n = 0; n < 12; n++) {
      const asked = await registry.invoke('wire.send', { n }, { actor: 'agent-7' });
      if (!asked.ok || !asked.requiresConfirm) throw new Error('expected a confirmation');
      if (n % 4 === 3) await registry.reject(asked.confirmationId, { rejectedBy: 'ana' });
      else if (n % 4 !== 2)
        await registry.confirm(asked.confirmationId, { approvedBy: 'ana', digest: asked.digest });
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
    await registry.sweep();
    expect(await expectEveryChangeLogged(store)).toBeGreaterThan(24);
  });
});

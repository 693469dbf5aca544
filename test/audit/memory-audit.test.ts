import { ToolRegistry } from 'graded-tools';
import { describe, expect, it } from 'vitest';
import { entriesOf, headKeys } from './audit-scenarios.js';

describe('audit log on the memory store', () => {
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
    });
  });
});

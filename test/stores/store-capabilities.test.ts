import { createMemoryStore, ToolDefinitionError, ToolRegistry } from 'graded-tools';
import { type ConfirmationStore, hasCapability, type StoreCapability } from 'graded-tools/store';
import { storeContract } from 'graded-tools/testing';
import { describe, expect, it } from 'vitest';
import { recordingSendTool } from '../confirm/setup.js';

/** A memory store with the members of `capability` taken out (a store written before it existed). */
function storeWithout(capability: StoreCapability, ...members: string[]): ConfirmationStore {
  const store: Record<string, unknown> = { ...createMemoryStore() };
  for (const member of members) delete store[member];
  const without = store as unknown as ConfirmationStore;
  expect(hasCapability(without, capability)).toBe(false);
  return without;
}

const channel = { channel: 'test', send: async () => ({ ok: true as const }) };

describe('hasCapability', () => {
  it('finds every capability but watch on the memory store', () => {
    const store = createMemoryStore();
    for (const capability of [
      'reminders',
      'escalations',
      'links',
      'quorum',
      'limits',
      'held',
      'audit',
    ] as const)
      expect(hasCapability(store, capability), capability).toBe(true);
    expect(hasCapability(store, 'watch')).toBe(false);
  });

  it('wants every member of a group, functions as functions and the audit chain as an object', () => {
    const { useLink: _use, ...halfLinks } = createMemoryStore();
    expect(hasCapability(halfLinks as ConfirmationStore, 'links')).toBe(false);
    const noisy = {
      ...createMemoryStore(),
      watch: 'not a function',
      audit: null,
    } as unknown as ConfirmationStore;
    expect(hasCapability(noisy, 'watch')).toBe(false);
    expect(hasCapability(noisy, 'audit')).toBe(false);
  });
});

describe('what a tool or an option needs of the store is refused before the first call', () => {
  it('refuses at register a quorum rule on a store that keeps no approvals of several people', () => {
    const store = storeWithout('quorum', 'approve');
    const tool = recordingSendTool('wire.send', undefined, { rules: [{ approvals: 2 }] }).tool;
    const error = (() => {
      try {
        new ToolRegistry({ confirmations: store }).register(tool);
      } catch (thrown) {
        return thrown;
      }
    })();
    expect(error).toBeInstanceOf(ToolDefinitionError);
    expect(error).toMatchObject({ code: 'INVALID_RULE', toolName: 'wire.send' });
    expect((error as Error).message).toMatch(/capability `quorum` \(`approve`\)/);
    // One approver, or a quorum rule only in shadow mode, asks nothing of it.
    const fine = new ToolRegistry({ confirmations: store });
    expect(() => fine.register(recordingSendTool('a.send').tool)).not.toThrow();
    const shadow = recordingSendTool('b.send', undefined, { rules: [{ approvals: 2, mode: 'shadow' }] }).tool;
    expect(() => fine.register(shadow)).not.toThrow();
  });

  it('refuses at register a tool with its own escalation steps on a store that cannot claim them', () => {
    const store = storeWithout('escalations', 'escalateDue');
    const tool = recordingSendTool('sms.send', undefined, {
      escalate: [{ afterMs: 60_000, to: [channel] }],
    }).tool;
    expect(() => new ToolRegistry({ confirmations: store }).register(tool)).toThrow(
      /`escalate`.*capability `escalations` \(`escalateDue`\)/,
    );
  });

  it('names the capability when a held send or a limit is refused', () => {
    const held = recordingSendTool('mail.send', undefined, { holdMs: 30_000 }).tool;
    expect(() => new ToolRegistry({ confirmations: storeWithout('held', 'cancel') }).register(held)).toThrow(
      /capability `held` \(`dueScheduled`, `deliverDue`, `cancel`\)/,
    );
    const limited = recordingSendTool('mail.send', undefined, {
      rules: [{ limit: { calls: 1, per: 'day', by: 'actor' } }],
    }).tool;
    expect(() =>
      new ToolRegistry({ confirmations: storeWithout('limits', 'peekLimit') }).register(limited),
    ).toThrow(/capability `limits`/);
  });

  it('refuses at construction reminders or default escalation steps a store cannot claim', () => {
    const noReminders = storeWithout('reminders', 'remindDue');
    expect(
      () =>
        new ToolRegistry({ confirmations: noReminders, notify: { to: [channel], remindBeforeMs: 60_000 } }),
    ).toThrow(/`notify.remindBeforeMs`.*capability `reminders` \(`remindDue`\)/);
    expect(() => new ToolRegistry({ confirmations: noReminders, notify: { to: [channel] } })).not.toThrow();
    const noEscalations = storeWithout('escalations', 'escalateDue');
    expect(
      () =>
        new ToolRegistry({
          confirmations: noEscalations,
          notify: { to: [channel], escalate: [{ afterMs: 60_000, to: [channel] }] },
        }),
    ).toThrow(ToolDefinitionError);
  });
});

// A store without links or limits passes the contract: the cases of what it lacks are skipped.
storeContract('memory without links or limits', async () => {
  const {
    saveLink: _s,
    findLink: _f,
    useLink: _u,
    spendLimit: _l,
    refundLimit: _r,
    peekLimit: _p,
    ...store
  } = createMemoryStore();
  return { store };
});

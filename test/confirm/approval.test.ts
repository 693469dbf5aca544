import type { Approval } from 'graded-tools';
import { describe, expect, it } from 'vitest';
import { recordingSendTool, registryWith } from './setup.js';

/** Confirms one send and hands back the approval its deliver was given (and what deliver saw). */
async function approvalSeen(behave: (approval: Approval) => unknown = () => 'sent', timeoutMs?: number) {
  let seen: Approval | undefined;
  const { tool } = recordingSendTool('mail.send', () => 'unused', {
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
    deliver: (_payload: unknown, approval: Approval) => {
      seen = approval;
      return behave(approval);
    },
  });
  const { registry } = registryWith(tool);
  const asked = await registry.invoke('mail.send', { text: 'hi' });
  if (!asked.ok || !asked.requiresConfirm) throw new Error('expected a confirmation');
  const result = await registry.confirm(asked.confirmationId, { approvedBy: 'lead-2' });
  if (seen === undefined) throw new Error('deliver was not called');
  return { approval: seen, result, id: asked.confirmationId };
}

describe('the approval deliver is handed', () => {
  it('is a plain object with its own confirmationId, approvedBy and signal getter, as a literal would be', async () => {
    const { approval, id } = await approvalSeen();
    expect(Object.getPrototypeOf(approval)).toBe(Object.prototype);
    expect(Reflect.ownKeys(approval)).toEqual(['confirmationId', 'approvedBy', 'signal']);
    expect(Object.getOwnPropertyDescriptor(approval, 'confirmationId')).toEqual({
      value: id,
      writable: true,
      enumerable: true,
      configurable: true,
    });
    const signal = Object.getOwnPropertyDescriptor(approval, 'signal');
    expect(signal).toMatchObject({ set: undefined, enumerable: true, configurable: true });
    expect(signal?.get?.name).toBe('get signal');
    expect(approval).toMatchObject({ confirmationId: id, approvedBy: 'lead-2' });
    const derived = Object.create(approval) as Approval;
    expect(derived.signal).toBe(approval.signal);
    const copy = { ...approval };
    expect(Object.keys(copy)).toEqual(['confirmationId', 'approvedBy', 'signal']);
    expect(copy.signal).toBeInstanceOf(AbortSignal);
  });

  it('gives each delivery its own signal, aborted when that delivery times out', async () => {
    const first = await approvalSeen();
    const second = await approvalSeen((approval) => new Promise(() => approval.signal), 20);
    expect(first.approval.signal.aborted).toBe(false);
    expect(second.result).toMatchObject({ code: 'DELIVERY_FAILED', confirmation: { status: 'unknown' } });
    expect(second.approval.signal.aborted).toBe(true);
    expect(first.approval.signal).not.toBe(second.approval.signal);
    expect(first.approval.signal.aborted).toBe(false);
  });
});

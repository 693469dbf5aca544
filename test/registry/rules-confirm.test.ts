import { type RegistryEvent, runPlan, ToolRegistry } from 'graded-tools';
import { describe, expect, it } from 'vitest';
import { writeTool } from '../helpers/tools.js';

// A `confirm` rule sends a write to a person first: pending, confirmed, then `run` once with the input.
function refunds() {
  const events: RegistryEvent[] = [];
  const write = writeTool('refund.submit', {
    inputSchema: {
      type: 'object',
      properties: { amount: { type: 'number' }, to: { type: 'string' } },
      required: ['amount'],
    },
    rules: [{ name: 'big', when: 'input.amount > 100', confirm: true }],
  });
  const registry = new ToolRegistry({ onEvent: (e) => void events.push(e) }).register(write.tool);
  return { registry, calls: write.calls, events };
}

describe('write tools with a confirm rule', () => {
  it("a person's invoke gets ConfirmRequired; confirm runs `run` once with the input and returns its data", async () => {
    const { registry, calls } = refunds();
    const input = { amount: 250, to: 'ana' };
    const asked = await registry.invoke('refund.submit', input, { actor: 'agent-7' });
    expect(asked).toMatchObject({ ok: true, requiresConfirm: true, confirmPayload: input });
    if (!asked.ok || !asked.requiresConfirm) throw new Error('expected a confirmation');
    expect(calls).toEqual([]);

    const confirmed = await registry.confirm(asked.confirmationId, {
      approvedBy: 'lead-2',
      digest: asked.digest,
    });
    expect(confirmed).toMatchObject({ ok: true, data: { id: 1 } });
    expect(calls).toEqual([input]);

    await expect(
      registry.confirm(asked.confirmationId, { approvedBy: 'lead-3', digest: asked.digest }),
    ).resolves.toMatchObject({ ok: false, code: 'ALREADY_DECIDED' });
    expect(calls).toHaveLength(1);
    const record = await registry.confirmations.get(asked.confirmationId);
    expect(record).toMatchObject({
      ok: true,
      confirmation: { status: 'delivered', tool: 'refund.submit', input },
    });
  });

  it('a call the rule does not match runs at once', async () => {
    const { registry, calls } = refunds();
    await expect(registry.invoke('refund.submit', { amount: 5 })).resolves.toEqual({
      ok: true,
      data: { id: 1 },
    });
    expect(calls).toEqual([{ amount: 5 }]);
  });

  it('a reject runs nothing', async () => {
    const { registry, calls } = refunds();
    const asked = await registry.invoke('refund.submit', { amount: 250 }, { actor: 'agent-7' });
    if (!asked.ok || !asked.requiresConfirm) throw new Error('expected a confirmation');
    await expect(registry.reject(asked.confirmationId, { rejectedBy: 'lead-2' })).resolves.toMatchObject({
      ok: true,
    });
    await expect(registry.confirm(asked.confirmationId, { approvedBy: 'lead-2' })).resolves.toMatchObject({
      code: 'ALREADY_DECIDED',
    });
    expect(calls).toEqual([]);
  });

  it('an autonomous caller gets SEND_REQUIRES_CONFIRM with requiresConfirm, and nothing runs', async () => {
    const { registry, calls, events } = refunds();
    const result = await registry.invoke('refund.submit', { amount: 250 }, { autonomous: true });
    expect(result).toMatchObject({ ok: false, code: 'SEND_REQUIRES_CONFIRM', requiresConfirm: true });
    expect(result.ok ? '' : result.error).toContain('one of its rules says so');
    expect(calls).toEqual([]);
    expect(events.filter((e) => e.type === 'rule')).toMatchObject([
      { rule: 'big', decision: 'confirm', enforced: true, caller: 'autonomous' },
    ]);
  });

  it('a plan step gets requiresConfirm, and the step is not run', async () => {
    const { registry, calls } = refunds();
    const plan = await runPlan(
      {
        name: 'refund-then-small',
        steps: [
          { tool: 'refund.submit', input: { amount: 250 } },
          { tool: 'refund.submit', input: { amount: 5 } },
        ],
      },
      {},
      { registry },
    );
    expect(plan.steps[0]?.result).toMatchObject({
      ok: false,
      code: 'SEND_REQUIRES_CONFIRM',
      requiresConfirm: true,
    });
    expect(plan.steps[1]?.result).toMatchObject({ ok: true, data: { id: 1 } });
    expect(calls).toEqual([{ amount: 5 }]);
  });

  it('propose of a write the rule sends to a person makes a pending confirmation; confirm runs it', async () => {
    const { registry, calls } = refunds();
    const proposed = await registry.propose(
      'refund.submit',
      { amount: 250 },
      { actor: 'agent-7', note: 'Ana asked.' },
    );
    expect(proposed).toMatchObject({ ok: true, requiresConfirm: true, confirmPayload: { amount: 250 } });
    if (!proposed.ok) throw new Error('expected a confirmation');
    expect(calls).toEqual([]);
    await expect(
      registry.confirm(proposed.confirmationId, { approvedBy: 'lead-2', digest: proposed.digest }),
    ).resolves.toMatchObject({ ok: true, data: { id: 1 } });
    expect(calls).toEqual([{ amount: 250 }]);
  });

  it('propose of a write no rule sends to a person is still stored for one, and nothing runs', async () => {
    const { registry, calls } = refunds();
    await expect(registry.propose('refund.submit', { amount: 5 })).resolves.toMatchObject({
      ok: true,
      requiresConfirm: true,
      confirmPayload: { amount: 5 },
    });
    const plain = writeTool('ticket.submit');
    registry.register(plain.tool);
    await expect(registry.propose('ticket.submit', {})).resolves.toMatchObject({ requiresConfirm: true });
    expect(calls).toEqual([]);
    expect(plain.calls).toEqual([]);
  });

  it('four eyes applies to a confirmed write', async () => {
    const write = writeTool('refund.submit', { rules: [{ confirm: true }] });
    const registry = new ToolRegistry({ requireDifferentApprover: true }).register(write.tool);
    const asked = await registry.invoke('refund.submit', { summary: 'x' }, { actor: 'agent-7' });
    if (!asked.ok || !asked.requiresConfirm) throw new Error('expected a confirmation');
    await expect(registry.confirm(asked.confirmationId, { approvedBy: 'agent-7' })).resolves.toMatchObject({
      code: 'SAME_PERSON',
    });
    expect(write.calls).toEqual([]);
    await expect(registry.confirm(asked.confirmationId, { approvedBy: 'lead-2' })).resolves.toMatchObject({
      ok: true,
    });
    expect(write.calls).toHaveLength(1);
  });

  it('a run that fails on confirm is reported, and the write is not run again by a second confirm', async () => {
    let runs = 0;
    const write = writeTool('refund.submit', {
      rules: [{ confirm: true }],
      run: () => {
        runs++;
        throw new Error('ledger down');
      },
    });
    const registry = new ToolRegistry().register(write.tool);
    const asked = await registry.invoke('refund.submit', {}, { actor: 'agent-7' });
    if (!asked.ok || !asked.requiresConfirm) throw new Error('expected a confirmation');
    const first = await registry.confirm(asked.confirmationId, { approvedBy: 'lead-2' });
    expect(first.ok).toBe(false);
    await expect(registry.confirm(asked.confirmationId, { approvedBy: 'lead-2' })).resolves.toMatchObject({
      ok: false,
    });
    expect(runs).toBe(1);
  });

  it('approvals on a write imply a person confirms', async () => {
    const write = writeTool('refund.submit', { rules: [{ approvals: 2 }] });
    const registry = new ToolRegistry().register(write.tool);
    await expect(registry.invoke('refund.submit', {}, { autonomous: true })).resolves.toMatchObject({
      code: 'SEND_REQUIRES_CONFIRM',
    });
    const asked = await registry.invoke('refund.submit', {}, { actor: 'agent-7' });
    if (!asked.ok || !asked.requiresConfirm) throw new Error('expected a confirmation');
    await expect(registry.confirm(asked.confirmationId, { approvedBy: 'ann' })).resolves.toMatchObject({
      code: 'AWAITING_APPROVALS',
    });
    expect(write.calls).toEqual([]);
    await expect(registry.confirm(asked.confirmationId, { approvedBy: 'bob' })).resolves.toMatchObject({
      ok: true,
    });
    expect(write.calls).toHaveLength(1);
  });
});

import { ToolRegistry } from 'graded-tools';
import { createApprovalsConsole } from 'graded-tools/console';
import { describe, expect, it } from 'vitest';
import { desk, manualClock } from '../confirm/setup.js';

const authenticate = () => ({ id: 'lead-li' });

describe('the console sweeps while it is open', () => {
  it('expires an overdue confirmation on its own from its first request on, and stops at close()', async () => {
    const { registry, ask, clock, confirmationEvents } = desk();
    const approvals = createApprovalsConsole({ registry, authenticate, sweepIntervalMs: 10 });
    const asked = await ask();
    clock.advance(2 * 3_600_000);
    // Made, not yet asked anything (a Worker's module scope, where workerd allows no timer): no sweep.
    await new Promise((resolve) => setTimeout(resolve, 100));
    const before = await registry.confirmations.get(asked.confirmationId);
    expect(before.ok && before.confirmation.status).toBe('pending');
    expect((await approvals.fetch(new Request('http://127.0.0.1/api/session'))).status).toBe(200);
    for (let i = 0; i < 200 && !confirmationEvents().includes('expired'); i++)
      await new Promise((resolve) => setTimeout(resolve, 10));
    const got = await registry.confirmations.get(asked.confirmationId);
    expect(got.ok && got.confirmation.status).toBe('expired');
    approvals.close();
    const later = await ask();
    clock.advance(2 * 3_600_000);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const still = await registry.confirmations.get(later.confirmationId);
    expect(still.ok && still.confirmation.status).toBe('pending');
  });

  it('does not sweep with sweepIntervalMs: 0, and refuses a bad interval', async () => {
    const { registry, ask, clock } = desk();
    const approvals = createApprovalsConsole({ registry, authenticate, sweepIntervalMs: 0 });
    const asked = await ask();
    clock.advance(2 * 3_600_000);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const got = await registry.confirmations.get(asked.confirmationId);
    expect(got.ok && got.confirmation.status).toBe('pending');
    approvals.close();
    expect(() => createApprovalsConsole({ registry, authenticate, sweepIntervalMs: -1 })).toThrow(
      /sweepIntervalMs/,
    );
  });

  it('never marks a delivery this process is still running unknown, so a retry cannot send it twice', async () => {
    const clock = manualClock();
    let release: (value: unknown) => void = () => {};
    let delivered = 0;
    const registry = new ToolRegistry({ now: clock.now }).register({
      name: 'report.send',
      description: 'Send a long report.',
      sideEffect: 'send',
      timeoutMs: 30 * 60_000,
      inputSchema: { type: 'object', properties: {} },
      prepare: () => ({ report: 'Q3' }),
      deliver: () => {
        delivered++;
        return new Promise((resolve) => {
          release = resolve;
        });
      },
    });
    const approvals = createApprovalsConsole({ registry, authenticate, sweepIntervalMs: 5 });
    try {
      const asked = await registry.invoke('report.send', {}, { actor: 'agent-7' });
      if (!asked.ok || !asked.requiresConfirm) throw new Error('not asked');
      const confirming = registry.confirm(asked.confirmationId, { approvedBy: 'lead-li' });
      for (let i = 0; i < 100 && delivered === 0; i++) await new Promise((r) => setTimeout(r, 5));
      clock.advance(11 * 60_000);
      // Several sweeps run meanwhile: the delivery is past the default ten minutes, but still running here.
      await new Promise((resolve) => setTimeout(resolve, 100));
      const during = await registry.confirmations.get(asked.confirmationId);
      expect(during.ok && during.confirmation.status).toBe('delivering');
      expect(await registry.retry(asked.confirmationId, { approvedBy: 'lead-wu' })).toMatchObject({
        ok: false,
        code: 'ALREADY_DECIDED',
      });
      release({ sent: true });
      expect(await confirming).toMatchObject({ ok: true, confirmation: { status: 'delivered' } });
      expect(delivered).toBe(1);
    } finally {
      approvals.close();
    }
  });

  it('takes staleAfterMs, and never sweeps below the longest send or write timeout plus a margin', async () => {
    const { registry } = desk();
    expect(() => createApprovalsConsole({ registry, authenticate, staleAfterMs: -5 } as never)).toThrow(
      /staleAfterMs/,
    );
    const approvals = createApprovalsConsole({ registry, authenticate, staleAfterMs: 60 * 60_000 });
    approvals.close();
  });
});

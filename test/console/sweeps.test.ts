import { createApprovalsConsole } from 'graded-tools/console';
import { describe, expect, it } from 'vitest';
import { desk } from '../confirm/setup.js';

const authenticate = () => ({ id: 'lead-li' });

describe('the console sweeps while it is open', () => {
  it('expires an overdue confirmation on its own, and stops at close()', async () => {
    const { registry, ask, clock, confirmationEvents } = desk();
    const approvals = createApprovalsConsole({ registry, authenticate, sweepIntervalMs: 10 });
    const asked = await ask();
    clock.advance(2 * 3_600_000);
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
});

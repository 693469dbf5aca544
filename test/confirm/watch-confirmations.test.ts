import type { ConfirmationNotice } from 'graded-tools';
import { describe, expect, it } from 'vitest';
import { desk } from './setup.js';

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('registry.confirmations.watch', () => {
  it('reports each change this registry makes, after the change', async () => {
    const { registry, ask } = desk();
    const notices: ConfirmationNotice[] = [];
    const stop = registry.confirmations.watch((notice) => notices.push(notice));
    const asked = await ask();
    await settle();
    expect(notices).toEqual([{ id: asked.confirmationId }]);
    await registry.confirm(asked.confirmationId, { approvedBy: 'lead-2', digest: asked.digest });
    await settle();
    // created, confirmed (claimed), delivered
    expect(notices).toHaveLength(3);
    stop();
    await ask();
    await settle();
    expect(notices).toHaveLength(3);
  });

  it('never lets a throwing listener break a confirm', async () => {
    const { registry, ask, data } = desk();
    registry.confirmations.watch(() => {
      throw new Error('listener bug');
    });
    const asked = await ask();
    await settle();
    await expect(
      registry.confirm(asked.confirmationId, { approvedBy: 'lead-2', digest: asked.digest }),
    ).resolves.toMatchObject({ ok: true });
    expect(data.outbox).toHaveLength(1);
  });

  it('watches the store while anyone watches, and stops it with the last watcher', async () => {
    const { createMemoryStore } = await import('graded-tools');
    const base = createMemoryStore();
    let storeListener: ((notice: { id?: string }) => void) | undefined;
    let stopped = 0;
    const store = {
      ...base,
      watch(listener: (notice: { id?: string }) => void) {
        storeListener = listener;
        return () => {
          stopped += 1;
        };
      },
    };
    const { registry } = desk({ confirmations: store });
    const notices: ConfirmationNotice[] = [];
    const stopA = registry.confirmations.watch((n) => notices.push(n));
    const stopB = registry.confirmations.watch(() => {});
    storeListener?.({ id: 'from-another-process' });
    storeListener?.({});
    await settle();
    expect(notices).toEqual([{ id: 'from-another-process' }, {}]);
    stopA();
    expect(stopped).toBe(0);
    stopB();
    stopB();
    expect(stopped).toBe(1);
  });
});

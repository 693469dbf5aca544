import { createMemoryStore } from 'graded-tools';
import { describe, expect, it } from 'vitest';
import { pendingConfirmation, storeContract } from './store-contract.js';

storeContract('memory', async () => ({ store: createMemoryStore() }));

describe('createMemoryStore', () => {
  it('makes room by dropping the oldest finished confirmations, never open ones', async () => {
    const store = createMemoryStore({ maxRecords: 3 });
    const a = pendingConfirmation();
    const b = pendingConfirmation();
    const c = pendingConfirmation();
    for (const x of [a, b, c]) await store.create(x);
    await store.reject(a.id, { now: Date.now(), by: 'x' });
    const d = pendingConfirmation();
    await store.create(d);
    expect(await store.get(a.id)).toBeUndefined();
    expect(await store.get(b.id)).toBeDefined();
    await expect(store.create(pendingConfirmation())).rejects.toThrow(/full/);
  });

  it('refuses a maxRecords that is not a positive integer', () => {
    expect(() => createMemoryStore({ maxRecords: 0 })).toThrow(RangeError);
    expect(() => createMemoryStore({ maxRecords: 1.5 })).toThrow(RangeError);
  });

  it('copies what it is given: changing the created object later does not change the store', async () => {
    const store = createMemoryStore();
    const original = pendingConfirmation();
    const given = structuredClone(original) as typeof original & { payload: { to: string } };
    await store.create(given);
    given.payload.to = 'mallory@example.com';
    expect(await store.get(original.id)).toEqual(original);
  });
});

import fc from 'fast-check';
import { type Confirmation, createMemoryStore, payloadDigest } from 'graded-tools';
import type { ConfirmationStore } from 'graded-tools/store';
import { pendingConfirmation, storeContract } from 'graded-tools/testing';
import { describe, expect, it } from 'vitest';
import { desk, recordingSendTool, registryWith, T0 } from './setup.js';

storeContract('memory', async () => {
  const store = createMemoryStore();
  return { store, another: () => store };
});

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

/** Every object reachable from `value` is frozen. */
function isDeepFrozen(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return true;
  return Object.isFrozen(value) && Object.values(value).every(isDeepFrozen);
}

/** Everything below the record's own fields is frozen: the shell handed out is a fresh copy each time. */
function isFrozenBelow(record: Confirmation | undefined): boolean {
  return record !== undefined && Object.values(record).every(isDeepFrozen);
}

/** Tries to change a record at every level; a frozen record refuses, which is what we want. */
function tamperWith(record: Confirmation): void {
  const attempts: (() => void)[] = [
    () => Object.assign(record, { status: 'pending', digest: 'x' }),
    () => (record.history as unknown[]).push({ at: 'now', status: 'pending' }),
    () => Object.assign(record.history[0] ?? {}, { by: 'mallory' }),
    () => Object.assign(record.payload as object, { to: 'mallory@example.com' }),
    () => Object.assign(record.input as object, { text: 'changed' }),
    () => Object.assign((record.result ?? {}) as object, { delivered: false }),
  ];
  for (const attempt of attempts) {
    try {
      attempt();
    } catch {
      // Refused outright: the record is frozen.
    }
  }
}

describe('the memory store behind a registry', () => {
  it('hands out snapshots in every version (a fresh shell over frozen parts), which change nothing', async () => {
    const { registry, store, ask } = desk();
    const asked = await ask();
    const versions: Confirmation[] = [];
    const pending = await store.get(asked.confirmationId);
    if (pending) versions.push(pending);
    const sent = await registry.confirm(asked.confirmationId, { approvedBy: 'lead-2', digest: asked.digest });
    expect(sent.ok).toBe(true);
    const delivered = await store.get(asked.confirmationId);
    if (delivered) versions.push(delivered);
    if (sent.ok) versions.push(sent.confirmation);
    expect(versions.map((v) => v.status)).toEqual(['pending', 'delivered', 'delivered']);
    const before = versions.map((v) => structuredClone(v));
    for (const version of versions) {
      expect(isFrozenBelow(version)).toBe(true);
      tamperWith(version);
    }
    expect(await store.get(asked.confirmationId)).toEqual(before[1]);
    expect(await store.get(asked.confirmationId)).not.toBe(await store.get(asked.confirmationId));
  });

  it('keeps what it stored when the caller changes the payload it was shown, and delivers that', async () => {
    const { registry, store, ask, data } = desk();
    const asked = await ask();
    const shown = asked.confirmPayload as { to: string; text: string };
    expect(Object.isFrozen(shown)).toBe(false);
    shown.to = 'mallory@example.com';
    expect((await store.get(asked.confirmationId))?.payload).toEqual({
      to: 'ana@example.com',
      text: 'Your refund is on its way.',
    });
    const sent = await registry.confirm(asked.confirmationId, { approvedBy: 'lead-2', digest: asked.digest });
    expect(sent.ok).toBe(true);
    expect(data.outbox).toMatchObject([{ to: 'ana@example.com' }]);
  });

  it('hands deliver exactly what a JSON round trip of the stored payload gives: -0 as 0, "__proto__" as data', async () => {
    const payload = JSON.parse('{"__proto__":{"admin":true},"n":0,"list":[1,{"m":0}]}') as Record<
      string,
      unknown
    >;
    payload.n = -0;
    (payload.list as [number, { m: number }])[1].m = -0;
    const { tool, deliveries } = recordingSendTool('mail.send', () => 'sent', { prepare: () => payload });
    const { registry } = registryWith(tool);
    const asked = await registry.invoke('mail.send', {});
    if (!asked.ok || !asked.requiresConfirm) throw new Error('expected a confirmation');
    // What the person is shown is the snapshot itself, as before: -0 stays -0.
    expect(Object.is((asked.confirmPayload as { n: number }).n, -0)).toBe(true);
    await registry.confirm(asked.confirmationId, { approvedBy: 'lead-2', digest: asked.digest });
    const delivered = deliveries[0]?.payload as Record<string, unknown>;
    expect(delivered).toStrictEqual(JSON.parse(JSON.stringify(payload)));
    expect(Object.is(delivered.n, 0)).toBe(true);
    expect(Object.hasOwn(delivered, '__proto__')).toBe(true);
    expect((delivered as { admin?: boolean }).admin).toBeUndefined();
    expect(Object.isFrozen(delivered)).toBe(false);
  });

  it("stores deliver's result exactly as its JSON text reads back: -0 as 0, '__proto__' as data", async () => {
    const returned = JSON.parse('{"__proto__":{"admin":true},"n":0,"list":[0,{"m":0}],"s":"x"}') as Record<
      string,
      unknown
    >;
    returned.n = -0;
    (returned.list as [number, { m: number }])[0] = -0;
    (returned.list as [number, { m: number }])[1].m = -0;
    const store = createMemoryStore();
    const { registry } = registryWith(recordingSendTool('mail.send', () => returned).tool, {}, store);
    const asked = await registry.invoke('mail.send', { text: 'hi' });
    if (!asked.ok || !asked.requiresConfirm) throw new Error('expected a confirmation');
    const sent = await registry.confirm(asked.confirmationId, { approvedBy: 'lead-2' });
    // The caller gets what deliver returned; the record keeps what its JSON text reads back as.
    expect(sent.ok && sent.data).toBe(returned);
    const stored = (await store.get(asked.confirmationId))?.result as Record<string, unknown>;
    expect(stored).toStrictEqual(JSON.parse(JSON.stringify(returned)));
    expect(Object.is(stored.n, 0)).toBe(true);
    expect(Object.is((stored.list as [number])[0], 0)).toBe(true);
    expect(Object.hasOwn(stored, '__proto__')).toBe(true);
    expect(isDeepFrozen(stored)).toBe(true);
    expect(stored).not.toBe(returned);
  });

  it('re-digests a record it did not get from the registry, and a record a wrapper made up', async () => {
    const store = createMemoryStore();
    const { registry } = registryWith(recordingSendTool('message.send').tool, {}, store);
    const planted = pendingConfirmation({ payload: { to: 'mallory@example.com', text: 'hi' } });
    await store.create({
      ...planted,
      digest: payloadDigest('message.send', { to: 'ana@example.com', text: 'hi' }),
    });
    await expect(registry.confirm(planted.id, { approvedBy: 'lead-2' })).resolves.toMatchObject({
      code: 'PAYLOAD_CHANGED',
    });
    // A wrapper's own copy of a genuine record is not the object the store holds: checked again too.
    const { tool, deliveries } = recordingSendTool('mail.send');
    const inner = createMemoryStore();
    const copying = { ...inner, get: async (id: string) => structuredClone(await inner.get(id)) };
    const wrapped = registryWith(tool, {}, copying).registry;
    const asked = await wrapped.invoke('mail.send', { text: 'hi' });
    if (!asked.ok || !asked.requiresConfirm) throw new Error('expected a confirmation');
    await expect(wrapped.confirm(asked.confirmationId, { approvedBy: 'lead-2' })).resolves.toMatchObject({
      ok: true,
    });
    expect(deliveries).toHaveLength(1);
  });

  it('still calls a wrapper that replaced create, claim or finish, never the store underneath', async () => {
    const inner = createMemoryStore();
    const calls: string[] = [];
    const counting: ConfirmationStore = {
      ...inner,
      create: (c) => {
        calls.push('create');
        return inner.create(c);
      },
      claim: (id, change) => {
        calls.push('claim');
        return inner.claim(id, change);
      },
      finish: (id, change) => {
        calls.push('finish');
        return inner.finish(id, change);
      },
    };
    const { registry } = registryWith(recordingSendTool().tool, {}, counting);
    const asked = await registry.invoke('mail.send', { text: 'hi' });
    if (!asked.ok || !asked.requiresConfirm) throw new Error('expected a confirmation');
    await expect(registry.confirm(asked.confirmationId, { approvedBy: 'lead-2' })).resolves.toMatchObject({
      ok: true,
    });
    expect(calls).toEqual(['create', 'claim', 'finish']);
  });

  it('hands a wrapper with its own create plain data it may change, as before', async () => {
    const inner = createMemoryStore();
    const tagging: ConfirmationStore = {
      ...inner,
      create: (c) => {
        Object.assign(c, { tenant: 'acme' });
        (c.payload as { text: string }).text += ' (tagged)';
        return inner.create(c);
      },
    };
    const { registry } = registryWith(recordingSendTool().tool, {}, tagging);
    const asked = await registry.invoke('mail.send', { text: 'hi' });
    if (!asked.ok || !asked.requiresConfirm) throw new Error('expected a confirmation');
    expect(await inner.get(asked.confirmationId)).toMatchObject({
      tenant: 'acme',
      payload: { text: 'hi (tagged)' },
    });
    // The wrapper changed the payload after it was digested: confirm notices, as it always did.
    await expect(registry.confirm(asked.confirmationId, { approvedBy: 'lead-2' })).resolves.toMatchObject({
      code: 'PAYLOAD_CHANGED',
    });
  });

  it('works with a store behind a proxy that refuses keys it does not know', async () => {
    const inner = createMemoryStore();
    const strict = new Proxy(inner, {
      get(target, key, receiver) {
        if (typeof key !== 'string' || !(key in target)) throw new Error(`unexpected ${String(key)}`);
        return Reflect.get(target, key, receiver);
      },
    });
    const { registry } = registryWith(recordingSendTool().tool, {}, strict);
    const asked = await registry.invoke('mail.send', { text: 'hi' });
    if (!asked.ok || !asked.requiresConfirm)
      throw new Error(`expected a confirmation: ${JSON.stringify(asked)}`);
    await expect(registry.confirm(asked.confirmationId, { approvedBy: 'lead-2' })).resolves.toMatchObject({
      ok: true,
    });
  });

  it("gives the registry's records the same fields, in the same order, as records it copied, in every version", async () => {
    const { store, ask } = desk();
    const asked = await ask();
    const made = await store.get(asked.confirmationId);
    if (made === undefined) throw new Error('expected a record');
    // The same record handed to the store by someone else: copied, and changed by the generic path.
    const twin = { ...structuredClone(made), id: `${made.id}-twin` };
    await store.create(twin);
    const shape = (record: Confirmation | undefined) =>
      JSON.stringify({ ...record, id: 'ID' }, (_key, value: unknown) => value);
    expect(shape(await store.get(twin.id))).toBe(shape(made));
    const steps: ((id: string) => Promise<unknown>)[] = [
      (id) => store.claim(id, { now: T0 + 1, by: 'lead-2' }),
      (id) => store.finish(id, { now: T0 + 2, attempt: 1, status: 'failed', error: 'smtp down' }),
      (id) => store.reclaim(id, { now: T0 + 3, by: 'lead-2' }),
      (id) => store.recoverStale({ now: T0 + 10_000, olderThanMs: 1 }).then(() => id),
      (id) => store.finish(id, { now: T0 + 10_001, attempt: 2, status: 'delivered', resultJson: '{"n":1}' }),
    ];
    for (const step of steps) {
      await step(made.id);
      await step(twin.id);
      const [ours, theirs] = [await store.get(made.id), await store.get(twin.id)];
      expect(shape(ours)).toBe(shape(theirs));
      expect(isFrozenBelow(ours)).toBe(true);
    }
    expect((await store.get(made.id))?.status).toBe('delivered');
    // And a record with a field of its own keeps it through every change.
    const odd = { ...pendingConfirmation(), extra: 'kept' } as Confirmation;
    await store.create(odd);
    await store.claim(odd.id, { now: T0 + 1, by: 'lead-2' });
    expect(await store.get(odd.id)).toMatchObject({ status: 'delivering', extra: 'kept' });
  });
});

describe('the memory store at scale', () => {
  const iso = (ms: number) => new Date(ms).toISOString();

  it('pages exactly what a full sort would, whatever order records arrive in (property)', async () => {
    const statuses = ['pending', 'rejected'] as const;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ at: fc.integer({ min: 0, max: 20 }), rejected: fc.boolean() }), {
          maxLength: 40,
        }),
        // In time order the store reads from the end of its creation list (or its pending set) and
        // finds a cursor by binary search; out of order it sorts. Both must page alike.
        fc.boolean(),
        fc.integer({ min: 1, max: 12 }),
        fc.constantFrom(undefined, ...statuses),
        async (arrivals, inTimeOrder, limit, status) => {
          const store = createMemoryStore();
          const made: Confirmation[] = [];
          const ordered = inTimeOrder ? [...arrivals].sort((a, b) => a.at - b.at) : arrivals;
          for (const { at, rejected } of ordered) {
            const record = pendingConfirmation({}, T0 + at);
            await store.create(record);
            if (rejected) await store.reject(record.id, { now: T0 + 30, by: 'x' });
            made.push({ ...record, status: rejected ? 'rejected' : 'pending' });
          }
          // Newest first by createdAt; among equal times the later created first.
          const expected = made
            .map((record, order) => ({ record, order }))
            .filter(({ record }) => status === undefined || record.status === status)
            .sort((a, b) => b.record.createdAt.localeCompare(a.record.createdAt) || b.order - a.order)
            .map(({ record }) => record.id);
          const pages: string[][] = [];
          let cursor: string | undefined;
          do {
            const page = await store.list({
              limit,
              ...(status === undefined ? {} : { status }),
              ...(cursor === undefined ? {} : { cursor }),
            });
            pages.push(page.confirmations.map((record) => record.id));
            cursor = page.nextCursor;
          } while (cursor !== undefined && pages.length <= 50);
          expect(pages.flat()).toEqual(expected);
          expect(pages).toHaveLength(Math.max(1, Math.ceil(expected.length / limit)));
          expect(pages.every((page) => page.length <= limit)).toBe(true);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('makes room at its cap in the order records finished, however many open ones come first', async () => {
    const store = createMemoryStore({ maxRecords: 6 });
    const open = [pendingConfirmation(), pendingConfirmation(), pendingConfirmation()];
    for (const record of open) await store.create(record);
    const done = [pendingConfirmation(), pendingConfirmation(), pendingConfirmation()];
    for (const record of done) await store.create(record);
    // They finish in another order than they were created.
    for (const record of [done[2], done[0], done[1]])
      await store.reject(record?.id ?? '', { now: T0 + 1, by: 'x' });
    const first = pendingConfirmation();
    await store.create(first);
    expect(await store.get(done[2]?.id ?? '')).toBeUndefined();
    expect(await store.get(done[0]?.id ?? '')).toBeDefined();
    await store.prune({ before: T0 + 2 });
    for (const record of open) expect((await store.get(record.id))?.status).toBe('pending');
    for (let i = 0; i < 2; i++) await store.create(pendingConfirmation());
    await expect(store.create(pendingConfirmation())).rejects.toThrow(/full/);
    expect((await store.list({ limit: 1_000 })).confirmations.length).toBe(6);
  });

  it('expires, recovers and prunes only what is due among many records', async () => {
    const store = createMemoryStore();
    const ids: string[] = [];
    for (let i = 0; i < 3_000; i++) {
      const record = pendingConfirmation({}, T0 + i);
      await store.create(record);
      ids.push(record.id);
      if (i % 3 === 1) await store.claim(record.id, { now: T0 + i + 1 });
      if (i % 3 === 2) await store.reject(record.id, { now: T0 + i + 1, by: 'x' });
    }
    const expired = await store.expire({ now: T0 + 3_600_000 + 1_000 });
    expect(expired.map((c) => c.id)).toEqual(ids.filter((_, i) => i % 3 === 0 && i <= 1_000));
    const stale = await store.recoverStale({ now: T0 + 1_500, olderThanMs: 1_000 });
    expect(stale.map((c) => c.id)).toEqual(ids.filter((_, i) => i % 3 === 1 && i + 1 < 500));
    expect(await store.prune({ before: T0 + 1_000 })).toBe(
      ids.filter((_, i) => i % 3 === 2 && i + 1 < 1_000).length,
    );
    expect(iso(T0)).toBe((await store.get(ids[0] ?? ''))?.createdAt);
  });
});

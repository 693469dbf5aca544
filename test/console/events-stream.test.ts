import { createApprovalsConsole } from 'graded-tools/console';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  type ConsoleFixture,
  changeEvents,
  consoleFixture,
  countingWatches,
  ORIGIN,
  readEvents,
  STORES,
} from './setup.js';

describe.each(STORES)('GET api/events (%s)', (_, makeStore) => {
  let f: ConsoleFixture;
  afterEach(() => f.close());

  const open = (fixture: ConsoleFixture) => fixture.call('/api/events');

  it('is an event stream that says retry, then a change event after a confirm', async () => {
    f = consoleFixture(makeStore);
    const asked = await f.ask();
    const response = await open(f);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('no-store');
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    expect(await readEvents(reader, (t) => t.includes('\n\n'))).toBe('retry: 3000\n\n');
    await f.json(`/api/confirmations/${asked.confirmationId}/confirm`, { body: { digest: asked.digest } });
    const text = await readEvents(reader, (t) => changeEvents(t).length > 0);
    expect(changeEvents(text)).toContainEqual({ id: asked.confirmationId });
    await reader.cancel();
  });

  it('says it is alive every 15 s, so proxies keep an idle stream open', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      f = consoleFixture(makeStore);
      const reader = ((await open(f)).body as ReadableStream<Uint8Array>).getReader();
      await readEvents(reader, (t) => t.includes('retry'));
      vi.advanceTimersByTime(15_000);
      expect(await readEvents(reader, (t) => t.includes('\n\n'))).toBe(': ping\n\n');
      await reader.cancel();
    } finally {
      vi.useRealTimers();
    }
  });

  it('tells a new confirmation without a reload, and only ids the person may view', async () => {
    const hidden = new Set<string>();
    f = consoleFixture(makeStore, { authorize: (_p, action, c) => action !== 'view' || !hidden.has(c.id) });
    const reader = ((await open(f)).body as ReadableStream<Uint8Array>).getReader();
    await readEvents(reader, (t) => t.startsWith('retry: 3000\n\n'));
    const secret = await f.ask('secret');
    hidden.add(secret.confirmationId);
    await f.registry.reject(secret.confirmationId, { rejectedBy: 'lead-wu' });
    const shown = await f.ask('shown');
    const text = await readEvents(reader, (t) =>
      changeEvents(t).some((e) => (e as { id?: string }).id === shown.confirmationId),
    );
    expect(changeEvents(text).map((e) => (e as { id?: string }).id)).not.toContain(secret.confirmationId);
    await reader.cancel();
  });

  it('ends every stream on close(), stops watching, and refuses new ones after', async () => {
    f = consoleFixture(makeStore);
    const watches = countingWatches(f.registry);
    const approvals = createApprovalsConsole({
      registry: watches.registry,
      authenticate: () => ({ id: 'lead-li' }),
      allowedHosts: ['console.test'],
    });
    const streams = await Promise.all(
      [1, 2, 3].map(() => approvals.fetch(new Request(`${ORIGIN}/api/events`))),
    );
    const readers = streams.map((s) => (s.body as ReadableStream<Uint8Array>).getReader());
    for (const reader of readers) await readEvents(reader, (t) => t.includes('retry'));
    expect(watches.open).toBe(3);
    // One client going away stops its own watch only.
    await readers[0]?.cancel();
    expect(watches.open).toBe(2);
    approvals.close();
    expect(watches.open).toBe(0);
    for (const reader of readers.slice(1)) expect((await reader.read()).done).toBe(true);
    const after = await approvals.fetch(new Request(`${ORIGIN}/api/events`));
    expect(after.status).toBe(503);
    expect(((await after.json()) as { code: string }).code).toBe('CONSOLE_CLOSED');
  });

  it('stops watching when the request is aborted', async () => {
    f = consoleFixture(makeStore);
    const watches = countingWatches(f.registry);
    const approvals = createApprovalsConsole({
      registry: watches.registry,
      authenticate: () => ({ id: 'lead-li' }),
      allowedHosts: ['console.test'],
    });
    const gone = new AbortController();
    const response = await approvals.fetch(new Request(`${ORIGIN}/api/events`, { signal: gone.signal }));
    expect(response.status).toBe(200);
    expect(watches.open).toBe(1);
    gone.abort();
    expect(watches.open).toBe(0);
    approvals.close();
  });
});

describe('how many live-update streams one person may hold', () => {
  let f: ConsoleFixture;
  afterEach(() => f.close());

  it('five at once per person: the sixth is 429 TOO_MANY_STREAMS, another person is not counted, closing one frees a slot', async () => {
    f = consoleFixture(STORES[0]?.[1] as (typeof STORES)[number][1]);
    const open = (person = 'lead-li') => f.call('/api/events', { person });
    const readers: ReadableStreamDefaultReader<Uint8Array>[] = [];
    for (let i = 0; i < 5; i++) {
      const response = await open();
      expect(response.status).toBe(200);
      const reader = (response.body as ReadableStream<Uint8Array>).getReader();
      await readEvents(reader, (t) => t.includes('retry'));
      readers.push(reader);
    }
    const sixth = await open();
    expect(sixth.status).toBe(429);
    expect(await sixth.json()).toEqual({ ok: false, code: 'TOO_MANY_STREAMS', error: expect.any(String) });
    const other = await open('lead-wu');
    expect(other.status).toBe(200);
    await other.body?.cancel();
    await readers.pop()?.cancel();
    const freed = await open();
    expect(freed.status).toBe(200);
    await freed.body?.cancel();
    // A stream whose request is aborted frees its slot too.
    const client = new AbortController();
    const aborted = await f.approvals.fetch(
      new Request(`${ORIGIN}/approvals/api/events`, {
        headers: { 'x-test-person': 'lead-li' },
        signal: client.signal,
      }),
    );
    expect(aborted.status).toBe(200);
    expect((await open()).status).toBe(429);
    client.abort();
    const again = await open();
    expect(again.status).toBe(200);
    await again.body?.cancel();
    for (const reader of readers) await reader.cancel();
  });
});

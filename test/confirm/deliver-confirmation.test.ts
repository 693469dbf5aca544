import { createMemoryStore, payloadDigest } from 'graded-tools';
import { describe, expect, it } from 'vitest';
import { desk, recordingSendTool, registryWith } from './setup.js';

describe('registry.confirm', () => {
  it('delivers once with the confirmation id as idempotency key and records the result', async () => {
    const { registry, ask, data, store, confirmationEvents } = desk();
    const asked = await ask();
    const sent = await registry.confirm(asked.confirmationId, { approvedBy: 'lead-2', digest: asked.digest });
    expect(sent).toMatchObject({ ok: true, data: { delivered: true, to: 'ana@example.com' } });
    expect(data.outbox).toEqual([
      { to: 'ana@example.com', text: 'Your refund is on its way.', confirmationId: asked.confirmationId },
    ]);
    const record = await store.get(asked.confirmationId);
    expect(record).toMatchObject({ status: 'delivered', attempt: 1, result: { delivered: true } });
    expect(record?.history.map((h) => [h.status, h.by])).toEqual([
      ['pending', 'agent-7'],
      ['delivering', 'lead-2'],
      ['delivered', undefined],
    ]);
    expect(confirmationEvents()).toEqual(['created', 'confirmed', 'delivered']);
  });

  it('hands deliver the approval and a payload copy it cannot use to change the record', async () => {
    const { tool, deliveries } = recordingSendTool('mail.send', (payload) => {
      (payload as { text: string }).text = 'changed by deliver';
      return 'ok';
    });
    const { registry } = registryWith(tool);
    const asked = await registry.invoke('mail.send', { text: 'hello' });
    if (!asked.ok || !asked.requiresConfirm) throw new Error('expected a confirmation');
    await registry.confirm(asked.confirmationId, { approvedBy: 'lead-2' });
    expect(deliveries).toMatchObject([{ confirmationId: asked.confirmationId, approvedBy: 'lead-2' }]);
    const record = await registry.confirmations.get(asked.confirmationId);
    expect(record.ok && record.confirmation.payload).toEqual({ text: 'hello' });
  });

  it('calls deliver as a method of its tool, like prepare (a class-based tool keeps its this)', async () => {
    class Mailer {
      readonly name = 'mail.send';
      readonly description = 'Send mail.';
      readonly sideEffect = 'send' as const;
      readonly inputSchema = { type: 'object' };
      readonly sent: unknown[] = [];
      prepare(input: unknown) {
        return { input };
      }
      deliver(payload: unknown) {
        this.sent.push(payload);
        return this.sent.length;
      }
    }
    const mailer = new Mailer();
    const { registry } = registryWith(mailer);
    const asked = await registry.invoke('mail.send', { text: 'x' });
    if (!asked.ok || !asked.requiresConfirm) throw new Error('expected a confirmation');
    await expect(registry.confirm(asked.confirmationId, { approvedBy: 'lead-2' })).resolves.toMatchObject({
      ok: true,
      data: 1,
    });
    expect(mailer.sent).toEqual([{ input: { text: 'x' } }]);
  });

  it('answers ALREADY_DECIDED to a second confirm and to every loser of concurrent confirms', async () => {
    const { registry, ask, data } = desk();
    const first = await ask('one');
    await registry.confirm(first.confirmationId, { approvedBy: 'lead-2' });
    const again = await registry.confirm(first.confirmationId, { approvedBy: 'lead-2' });
    expect(again).toMatchObject({
      ok: false,
      code: 'ALREADY_DECIDED',
      confirmation: { status: 'delivered' },
    });
    expect(again.ok ? '' : again.error).toMatch(/already delivered/);

    const second = await ask('two');
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        registry.confirm(second.confirmationId, { approvedBy: `lead-${i}` }),
      ),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.filter((r) => !r.ok && r.code === 'ALREADY_DECIDED')).toHaveLength(9);
    expect(data.outbox.filter((m) => m.confirmationId === second.confirmationId)).toHaveLength(1);
  });

  it('answers CONFIRMATION_NOT_FOUND for an unknown id, and never hands a malformed one to the store', async () => {
    const seen: string[] = [];
    const inner = createMemoryStore();
    const spy = {
      ...inner,
      get: (id: string) => {
        seen.push(id);
        return inner.get(id);
      },
    };
    const { registry } = desk({ confirmations: spy });
    await expect(registry.confirm('AAAAAAAAAAAAAAAAAAAAAA', { approvedBy: 'x' })).resolves.toMatchObject({
      code: 'CONFIRMATION_NOT_FOUND',
    });
    for (const id of [
      '',
      'short',
      '../../etc/passwd',
      "x' OR '1'='1",
      'a'.repeat(500),
      42,
      null,
      undefined,
    ]) {
      await expect(registry.confirm(id as string, { approvedBy: 'x' })).resolves.toMatchObject({
        code: 'CONFIRMATION_NOT_FOUND',
      });
    }
    expect(seen).toEqual(['AAAAAAAAAAAAAAAAAAAAAA']);
  });

  it('refuses a digest that differs from the stored payload, leaving it pending for the right one', async () => {
    const { registry, ask, data } = desk();
    const asked = await ask();
    const wrong = payloadDigest('message.send', {
      to: 'mallory@example.com',
      text: 'Your refund is on its way.',
    });
    const refused = await registry.confirm(asked.confirmationId, { approvedBy: 'lead-2', digest: wrong });
    expect(refused).toMatchObject({
      ok: false,
      code: 'PAYLOAD_CHANGED',
      confirmation: { status: 'pending' },
    });
    expect(data.outbox).toEqual([]);
    const upper = await registry.confirm(asked.confirmationId, {
      approvedBy: 'lead-2',
      digest: asked.digest.toUpperCase(),
    });
    expect(upper.ok).toBe(true);
  });

  it('refuses a payload edited in the store since it was shown, even without a digest', async () => {
    const inner = createMemoryStore();
    let tamper = false;
    const tampering = {
      ...inner,
      get: async (id: string) => {
        const record = await inner.get(id);
        return tamper && record ? { ...record, payload: { to: 'mallory@example.com', text: 'hi' } } : record;
      },
    };
    const { registry, ask, data } = desk({ confirmations: tampering });
    const asked = await ask();
    tamper = true;
    const refused = await registry.confirm(asked.confirmationId, { approvedBy: 'lead-2' });
    expect(refused).toMatchObject({ ok: false, code: 'PAYLOAD_CHANGED' });
    expect(refused.ok ? '' : refused.error).toMatch(/stored payload/);
    expect(data.outbox).toEqual([]);
  });

  it.each([
    [{ digest: 'abc' }, /digest/],
    [{ digest: 42 }, /digest/],
    [{ digest: 'a'.repeat(63) }, /digest/],
    [{ digest: 'a'.repeat(65) }, /digest/],
    [{ digest: `${'a'.repeat(63)}g` }, /digest/],
    [{ digest: `${'a'.repeat(63)}/` }, /digest/],
    [{ digest: `${'a'.repeat(63)}:` }, /digest/],
    [{ digest: `${'a'.repeat(63)}\u0660` }, /digest/],
    [{ approvedBy: '' }, /approvedBy/],
    [{ approvedBy: undefined }, /approvedBy/],
    [{ approvedBy: 'lead\nforged log line' }, /approvedBy/],
    [{ approvedBy: 'x'.repeat(257) }, /approvedBy/],
  ])('refuses options %j with INVALID_OPTION, leaving it pending', async (options, message) => {
    const { registry, ask, store } = desk();
    const asked = await ask();
    const result = await registry.confirm(asked.confirmationId, {
      approvedBy: 'lead-2',
      ...options,
    } as never);
    expect(result).toMatchObject({ ok: false, code: 'INVALID_OPTION' });
    expect(result.ok ? '' : result.error).toMatch(message);
    expect((await store.get(asked.confirmationId))?.status).toBe('pending');
  });

  it('requires the digest when the registry says so', async () => {
    const { registry, ask } = desk({ requireDigest: true });
    const asked = await ask();
    await expect(registry.confirm(asked.confirmationId, { approvedBy: 'lead-2' })).resolves.toMatchObject({
      code: 'INVALID_OPTION',
    });
    await expect(
      registry.confirm(asked.confirmationId, { approvedBy: 'lead-2', digest: asked.digest }),
    ).resolves.toMatchObject({ ok: true });
  });

  it("re-checks the gates with the approver's flags: a flag revoked since is refused, nothing sent", async () => {
    const { tool, deliveries } = recordingSendTool('mail.send', () => 1, { featureFlag: 'mail' });
    const { registry } = registryWith(tool);
    const asked = await registry.invoke('mail.send', { text: 'x' }, { flags: { mail: true } });
    if (!asked.ok || !asked.requiresConfirm) throw new Error('expected a confirmation');
    const revoked = await registry.confirm(asked.confirmationId, {
      approvedBy: 'lead-2',
      flags: { mail: false },
    });
    expect(revoked).toMatchObject({
      ok: false,
      code: 'FLAG_NOT_GRANTED',
      confirmation: { status: 'pending' },
    });
    const stringy = await registry.confirm(asked.confirmationId, {
      approvedBy: 'lead-2',
      flags: JSON.parse('{"mail":"true"}'),
    });
    expect(stringy).toMatchObject({ code: 'FLAG_NOT_GRANTED' });
    expect(deliveries).toEqual([]);
    const granted = await registry.confirm(asked.confirmationId, {
      approvedBy: 'lead-2',
      flags: { mail: true },
    });
    expect(granted.ok).toBe(true);
    expect(deliveries).toHaveLength(1);
  });

  it("checks the approver's scope, defaulting to the scope it was asked in, against the tool as registered now", async () => {
    const { registry, ask, data } = desk();
    const a = await ask('a');
    await expect(
      registry.confirm(a.confirmationId, { approvedBy: 'lead-2', scope: 'marketing' }),
    ).resolves.toMatchObject({ code: 'SCOPE_MISMATCH' });
    await expect(registry.confirm(a.confirmationId, { approvedBy: 'lead-2' })).resolves.toMatchObject({
      ok: true,
    });

    const b = await ask('b');
    const current = registry.get('message.send');
    expect(current).toBeDefined();
    // The tool is re-registered without the `desk` scope: confirmations asked there can no longer deliver.
    const sendTool = {
      name: 'message.send',
      description: 'Email the customer.',
      sideEffect: 'send' as const,
      scopes: ['admin'],
      inputSchema: { type: 'object' },
      prepare: () => ({}),
      deliver: () => 'sent',
    };
    registry.register(sendTool, { replace: true });
    await expect(registry.confirm(b.confirmationId, { approvedBy: 'lead-2' })).resolves.toMatchObject({
      code: 'SCOPE_MISMATCH',
      confirmation: { status: 'pending' },
    });
    expect(data.outbox).toHaveLength(1);
  });

  it('refuses when the tool was unregistered (or is no longer a send tool) since, nothing sent', async () => {
    const { registry, ask, data } = desk();
    const asked = await ask();
    registry.unregister('message.send');
    const gone = await registry.confirm(asked.confirmationId, { approvedBy: 'lead-2' });
    expect(gone).toMatchObject({ ok: false, code: 'UNKNOWN_TOOL', confirmation: { status: 'pending' } });
    expect(gone.ok ? '' : gone.error).not.toMatch(/No tools are available/);
    registry.register({
      name: 'message.send',
      description: 'Now only reads.',
      sideEffect: 'read',
      inputSchema: { type: 'object' },
      run: () => 'read',
    });
    await expect(registry.confirm(asked.confirmationId, { approvedBy: 'lead-2' })).resolves.toMatchObject({
      code: 'UNKNOWN_TOOL',
    });
    expect(data.outbox).toEqual([]);
  });

  it('records a throwing deliver as failed with its error, and answers DELIVERY_FAILED', async () => {
    const { tool } = recordingSendTool('mail.send', () => {
      throw new Error('SMTP 550 mailbox unavailable');
    });
    const { registry, events } = registryWith(tool);
    const asked = await registry.invoke('mail.send', { text: 'x' });
    if (!asked.ok || !asked.requiresConfirm) throw new Error('expected a confirmation');
    const result = await registry.confirm(asked.confirmationId, { approvedBy: 'lead-2' });
    expect(result).toMatchObject({
      ok: false,
      code: 'DELIVERY_FAILED',
      confirmation: { status: 'failed', error: 'SMTP 550 mailbox unavailable' },
    });
    expect(
      events.filter((e) => e.type === 'confirmation').map((e) => e.type === 'confirmation' && e.action),
    ).toEqual(['created', 'confirmed', 'failed']);
  });

  it('records a deliver that outlives its timeout as unknown (it may have arrived), not failed', async () => {
    const { tool } = recordingSendTool('mail.send', () => new Promise(() => {}), { timeoutMs: 20 });
    const { registry } = registryWith(tool);
    const asked = await registry.invoke('mail.send', { text: 'x' });
    if (!asked.ok || !asked.requiresConfirm) throw new Error('expected a confirmation');
    const result = await registry.confirm(asked.confirmationId, { approvedBy: 'lead-2' });
    expect(result).toMatchObject({ ok: false, code: 'DELIVERY_FAILED', confirmation: { status: 'unknown' } });
    expect(result.ok ? '' : result.error).toMatch(/may or may not have been delivered/);
  });

  it('leaves it pending when cancelled before the claim, and unknown when cancelled during deliver', async () => {
    let release: (() => void) | undefined;
    const started = new Promise<void>((resolve) => {
      release = resolve;
    });
    const { tool } = recordingSendTool('mail.send', () => {
      release?.();
      return new Promise(() => {});
    });
    const { registry } = registryWith(tool);
    const asked = await registry.invoke('mail.send', { text: 'x' });
    if (!asked.ok || !asked.requiresConfirm) throw new Error('expected a confirmation');
    const early = await registry.confirm(asked.confirmationId, {
      approvedBy: 'lead-2',
      signal: AbortSignal.abort(),
    });
    expect(early).toMatchObject({ code: 'ABORTED' });
    const controller = new AbortController();
    const pending = registry.confirm(asked.confirmationId, {
      approvedBy: 'lead-2',
      signal: controller.signal,
    });
    await started;
    controller.abort();
    await expect(pending).resolves.toMatchObject({
      code: 'DELIVERY_FAILED',
      confirmation: { status: 'unknown' },
    });
  });

  it('records delivered even when deliver returns something that is not JSON', async () => {
    const { tool } = recordingSendTool('mail.send', () => ({ at: new Date(0), n: 1n }));
    const { registry } = registryWith(tool);
    const asked = await registry.invoke('mail.send', { text: 'x' });
    if (!asked.ok || !asked.requiresConfirm) throw new Error('expected a confirmation');
    const result = await registry.confirm(asked.confirmationId, { approvedBy: 'lead-2' });
    expect(result).toMatchObject({ ok: true, confirmation: { status: 'delivered' } });
    expect(result.ok && 'result' in result.confirmation).toBe(false);
    expect(result.ok && result.confirmation.history.at(-1)?.note).toMatch(/not JSON/);
  });

  it('answers STORE_FAILED (and says it was delivered) when only recording the outcome fails', async () => {
    const inner = createMemoryStore();
    const flaky = { ...inner, finish: () => Promise.reject(new Error('connection reset')) };
    const { tool, deliveries } = recordingSendTool();
    const { registry, clock } = registryWith(tool, {}, flaky);
    const asked = await registry.invoke('mail.send', { text: 'x' });
    if (!asked.ok || !asked.requiresConfirm) throw new Error('expected a confirmation');
    const result = await registry.confirm(asked.confirmationId, { approvedBy: 'lead-2' });
    expect(result).toMatchObject({ ok: false, code: 'STORE_FAILED' });
    expect(result.ok ? '' : result.error).toMatch(/it was delivered/);
    expect(deliveries).toHaveLength(1);
    expect((await inner.get(asked.confirmationId))?.status).toBe('delivering');
    clock.advance(2 * 60_000); // past the longest send or write timeout (30 s) plus the minute no sweep goes below
    const swept = await registry.recoverStale({ olderThanMs: 30_000 });
    expect(swept.ok && swept.changed.map((c) => c.id)).toEqual([asked.confirmationId]);
  });

  it('answers STORE_FAILED, never throwing, when the store cannot be read or claimed', async () => {
    const inner = createMemoryStore();
    let broken: 'get' | 'claim' | undefined;
    const store = {
      ...inner,
      get: (id: string) => (broken === 'get' ? Promise.reject(new Error('down')) : inner.get(id)),
      claim: (id: string, c: Parameters<typeof inner.claim>[1]) =>
        broken === 'claim' ? Promise.reject(new Error('down')) : inner.claim(id, c),
    };
    const { tool, deliveries } = recordingSendTool();
    const { registry } = registryWith(tool, {}, store);
    const asked = await registry.invoke('mail.send', { text: 'x' });
    if (!asked.ok || !asked.requiresConfirm) throw new Error('expected a confirmation');
    for (const which of ['get', 'claim'] as const) {
      broken = which;
      await expect(registry.confirm(asked.confirmationId, { approvedBy: 'lead-2' })).resolves.toMatchObject({
        code: 'STORE_FAILED',
      });
    }
    expect(deliveries).toEqual([]);
  });

  it('speaks the locale it is asked for, with the same code', async () => {
    const { registry, ask } = desk({ locale: 'zh-CN' });
    const asked = await ask();
    await registry.confirm(asked.confirmationId, { approvedBy: 'lead-2' });
    const zh = await registry.confirm(asked.confirmationId, { approvedBy: 'lead-2' });
    const en = await registry.confirm(asked.confirmationId, { approvedBy: 'lead-2', locale: 'en' });
    expect(zh).toMatchObject({ code: 'ALREADY_DECIDED' });
    expect(zh.ok ? '' : zh.error).toMatch(/已经投递/);
    expect(en.ok ? '' : en.error).toMatch(/already delivered/);
  });
});

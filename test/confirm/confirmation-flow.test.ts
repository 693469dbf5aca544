import { type Approval, createMemoryStore, ToolRegistry } from 'graded-tools';
import { describe, expect, it } from 'vitest';
import { desk, recordingSendTool, registryWith } from './setup.js';

/** Options objects no caller should send, each of which must be answered, never thrown at the caller. */
function hostileOptions(): [string, unknown][] {
  const throwing = (key: string) =>
    Object.defineProperty({}, key, {
      enumerable: true,
      get() {
        throw new Error(`${key} getter`);
      },
    });
  return [
    ['null', null],
    ['a null-prototype object', Object.create(null)],
    ['a number', 42],
    [
      'a proxy whose every trap throws',
      new Proxy(
        {},
        {
          get: () => {
            throw new Error('get trap');
          },
          has: () => {
            throw new Error('has trap');
          },
          ownKeys: () => {
            throw new Error('ownKeys trap');
          },
          getOwnPropertyDescriptor: () => {
            throw new Error('descriptor trap');
          },
          getPrototypeOf: () => {
            throw new Error('prototype trap');
          },
        },
      ),
    ],
    ['a throwing locale getter', throwing('locale')],
    ['a throwing approvedBy getter', throwing('approvedBy')],
    [
      'a throwing digest getter',
      {
        approvedBy: 'lead-2',
        get digest() {
          throw new Error('digest getter');
        },
      },
    ],
    ['throwing flags', { approvedBy: 'lead-2', flags: throwing('mail') }],
    [
      'flags behind a throwing proxy',
      {
        approvedBy: 'lead-2',
        flags: new Proxy(
          {},
          {
            ownKeys: () => {
              throw new Error('x');
            },
          },
        ),
      },
    ],
    ['a scope that is not a string', { approvedBy: 'lead-2', scope: ['desk'] }],
    ['a signal that is not one', { approvedBy: 'lead-2', signal: { aborted: false } }],
    ['a throwing olderThanMs getter', throwing('olderThanMs')],
    ['a throwing rejectedBy getter', throwing('rejectedBy')],
    ['a throwing by getter', throwing('by')],
    ['a throwing status getter', throwing('status')],
    ['a throwing limit getter', throwing('limit')],
  ];
}

describe('every confirmation method answers hostile options with a result', () => {
  it.each(hostileOptions())('%s', async (what, options) => {
    const { registry, ask, data } = desk();
    const asked = await ask();
    const id = asked.confirmationId;
    const o = options as never;
    const answers = await Promise.all([
      registry.confirm(id, o),
      registry.retry(id, o),
      registry.reject(id, o),
      registry.markDelivered(id, o),
      registry.recoverStale(o),
      registry.expireDue(o),
      registry.prune(o),
      registry.confirmations.get(id, o),
      registry.confirmations.list(o),
    ]);
    // Deciding, recovering and pruning need options these are not (an approver, an age), so they are
    // refused; expiring, reading one and listing need none, so they answer unless the options cannot be
    // read at all (every method reads the locale) or a field list() reads throws.
    const unreadable = what === 'a proxy whose every trap throws' || what === 'a throwing locale getter';
    const listRefused =
      unreadable || what === 'a throwing status getter' || what === 'a throwing limit getter';
    const refused = 'INVALID_OPTION';
    expect(answers.map((answer) => (answer.ok ? 'ok' : answer.code))).toEqual([
      refused, // confirm
      refused, // retry
      refused, // reject
      refused, // markDelivered
      refused, // recoverStale
      unreadable ? refused : 'ok', // expireDue
      refused, // prune
      unreadable ? refused : 'ok', // confirmations.get
      listRefused ? refused : 'ok', // confirmations.list
    ]);
    for (const answer of answers) if (!answer.ok) expect(answer.error).toMatch(/\S/);
    const [, , , , , expired, , got, listed] = answers;
    if (expired?.ok) expect(expired).toMatchObject({ changed: [] });
    if (got?.ok)
      expect(got).toMatchObject({
        confirmation: { id, status: 'pending', history: [{ status: 'pending' }] },
      });
    if (listed?.ok) expect(listed).toMatchObject({ confirmations: [{ id, status: 'pending' }] });
    const still = await registry.confirmations.get(id);
    expect(still.ok && still.confirmation.status).toBe('pending');
    expect(data.outbox).toEqual([]);
  });

  it('answers INVALID_OPTION when the options cannot be read at all', async () => {
    const { registry, ask } = desk();
    const asked = await ask();
    const proxy = new Proxy(
      {},
      {
        get: () => {
          throw new Error('no');
        },
      },
    ) as never;
    for (const answer of [
      await registry.confirm(asked.confirmationId, proxy),
      await registry.retry(asked.confirmationId, proxy),
      await registry.reject(asked.confirmationId, proxy),
      await registry.markDelivered(asked.confirmationId, proxy),
      await registry.recoverStale(proxy),
      await registry.expireDue(proxy),
      await registry.prune(proxy),
      await registry.confirmations.get(asked.confirmationId, proxy),
      await registry.confirmations.list(proxy),
    ]) {
      expect(answer).toMatchObject({ ok: false, code: 'INVALID_OPTION' });
    }
    const still = await registry.confirmations.get(asked.confirmationId);
    expect(still.ok && still.confirmation.status).toBe('pending');
  });

  it('refuses flags, scope or signal that are not what they say, leaving it pending', async () => {
    const { registry, ask } = desk();
    const asked = await ask();
    for (const bad of [
      { flags: 'kb' },
      {
        flags: new Proxy(
          {},
          {
            ownKeys: () => {
              throw new Error('x');
            },
          },
        ),
      },
      { scope: 7 },
      { signal: { aborted: false } },
      {
        digest: Object.defineProperty({}, 'toLowerCase', {
          get: () => {
            throw new Error('x');
          },
        }),
      },
    ]) {
      await expect(
        registry.confirm(asked.confirmationId, { approvedBy: 'lead-2', ...bad } as never),
      ).resolves.toMatchObject({ ok: false, code: 'INVALID_OPTION' });
    }
    const still = await registry.confirmations.get(asked.confirmationId);
    expect(still.ok && still.confirmation.status).toBe('pending');
  });
});

describe('each option is read once', () => {
  it('tells deliver the approver that was checked and recorded, even when a getter changes its answer', async () => {
    const { tool, deliveries } = recordingSendTool();
    const { registry } = registryWith(tool);
    const asked = await registry.invoke('mail.send', { text: 'hi' });
    if (!asked.ok || !asked.requiresConfirm) throw new Error('expected a confirmation');
    let reads = 0;
    const options = {
      get approvedBy() {
        reads++;
        return reads === 1 ? 'alice' : 'mallory\u202e';
      },
    };
    const sent = await registry.confirm(asked.confirmationId, options);
    expect(sent.ok).toBe(true);
    expect(deliveries.map((d) => d.approvedBy)).toEqual(['alice']);
    expect(sent.ok && sent.confirmation.history.map((h) => h.by)).toEqual([undefined, 'alice', undefined]);
    expect(reads).toBe(1);
  });

  it('reads every option of confirm, reject and the sweeps exactly once', async () => {
    const { registry, ask, clock } = desk();
    const counted = (values: Record<string, unknown>) => {
      const reads: Record<string, number> = {};
      const options = {};
      for (const [key, value] of Object.entries(values)) {
        Object.defineProperty(options, key, {
          enumerable: true,
          get() {
            reads[key] = (reads[key] ?? 0) + 1;
            return value;
          },
        });
      }
      return { options, reads };
    };
    const a = await ask('a');
    const confirm = counted({
      approvedBy: 'lead-2',
      digest: a.digest,
      flags: {},
      scope: 'desk',
      signal: new AbortController().signal,
      locale: 'en',
    });
    await expect(registry.confirm(a.confirmationId, confirm.options as never)).resolves.toMatchObject({
      ok: true,
    });
    expect(Object.values(confirm.reads).every((n) => n === 1)).toBe(true);
    expect(Object.keys(confirm.reads).sort()).toEqual([
      'approvedBy',
      'digest',
      'flags',
      'locale',
      'scope',
      'signal',
    ]);
    const b = await ask('b');
    const reject = counted({ rejectedBy: 'lead-2', reason: 'no', locale: 'en' });
    await expect(registry.reject(b.confirmationId, reject.options as never)).resolves.toMatchObject({
      ok: true,
    });
    expect(reject.reads).toEqual({ rejectedBy: 1, reason: 1, locale: 1 });
    clock.advance(1);
    const stale = counted({ olderThanMs: 1, locale: 'en' });
    await registry.recoverStale(stale.options as never);
    expect(stale.reads).toEqual({ olderThanMs: 1, locale: 1 });
  });
});

describe('records handed out are snapshots', () => {
  it('a record read through registry.confirmations cannot change the store, however deep its input', async () => {
    let deep: unknown = 'leaf';
    for (let i = 0; i < 300; i++) deep = { next: deep };
    const { tool, deliveries } = recordingSendTool('mail.send', () => 'sent', {
      inputSchema: { type: 'object' },
      prepare: () => ({ to: 'ana@example.com' }),
    });
    const { registry } = registryWith(tool, { argumentLimits: { maxDepth: 1_000 } });
    const asked = await registry.invoke('mail.send', { to: 'ana@example.com', deep });
    if (!asked.ok || !asked.requiresConfirm)
      throw new Error(`expected a confirmation: ${JSON.stringify(asked)}`);
    const read = await registry.confirmations.get(asked.confirmationId);
    if (!read.ok) throw new Error('expected the record');
    const tamper = (record: unknown) => {
      for (const change of [
        () => Object.assign((record as { input: object }).input, { to: 'mallory' }),
        () => Object.assign((record as { payload: object }).payload, { to: 'mallory' }),
        () => Object.assign(record as object, { tool: 'other.send' }),
      ]) {
        try {
          change();
        } catch {
          // Frozen: refused outright, as good as a fresh copy.
        }
      }
    };
    tamper(read.confirmation);
    const listed = await registry.confirmations.list();
    if (listed.ok) for (const record of listed.confirmations) tamper(record);
    const again = await registry.confirmations.get(asked.confirmationId);
    expect(again.ok && again.confirmation).toMatchObject({
      tool: 'mail.send',
      payload: { to: 'ana@example.com' },
    });
    expect(again.ok && (again.confirmation.input as { to: string }).to).not.toBe('mallory');
    const sent = await registry.confirm(asked.confirmationId, { approvedBy: 'lead-2', digest: asked.digest });
    expect(sent.ok).toBe(true);
    expect(deliveries.map((d) => d.payload)).toEqual([{ to: 'ana@example.com' }]);
  });
});

describe('a locale naming an Object.prototype member', () => {
  it.each(['constructor', '__proto__', 'toString', 'hasOwnProperty'])(
    'gives English on every confirmation failure path: %s',
    async (locale) => {
      const { registry, ask } = desk();
      const asked = await ask();
      const o = { locale } as never;
      const id = asked.confirmationId;
      const answers = [
        await registry.confirm(id, { approvedBy: '', locale } as never),
        await registry.confirm('AAAAAAAAAAAAAAAAAAAAAA', { approvedBy: 'lead-2', locale } as never),
        await registry.retry(id, { approvedBy: 'lead-2', locale } as never),
        await registry.reject(id, { rejectedBy: '', locale } as never),
        await registry.markDelivered(id, { by: 'lead-2', locale } as never),
        await registry.recoverStale(o),
        await registry.prune(o),
        await registry.confirmations.get('AAAAAAAAAAAAAAAAAAAAAA', o),
        await registry.confirmations.list({ status: 'nope', locale } as never),
      ];
      for (const answer of answers) {
        expect(answer.ok).toBe(false);
        expect(answer.ok ? '' : answer.error).toMatch(/^[\x20-\x7e]+$/);
      }
      // And a successful sweep still succeeds.
      await expect(registry.expireDue(o)).resolves.toMatchObject({ ok: true });
    },
  );

  it('gives English for a registry locale that is not a language either', async () => {
    const { tool } = recordingSendTool();
    const registry = new ToolRegistry({ locale: 'constructor' as never, confirmations: createMemoryStore() });
    registry.register(tool);
    await expect(registry.confirm('AAAAAAAAAAAAAAAAAAAAAA', { approvedBy: 'lead-2' })).resolves.toMatchObject(
      {
        code: 'CONFIRMATION_NOT_FOUND',
      },
    );
  });
});

describe('registry.prune', () => {
  it('deletes finished confirmations older than olderThanMs, never open ones, and says how many', async () => {
    const { registry, ask, clock } = desk();
    const delivered = await ask('delivered');
    await registry.confirm(delivered.confirmationId, { approvedBy: 'lead-2' });
    const rejected = await ask('rejected');
    await registry.reject(rejected.confirmationId, { rejectedBy: 'lead-2' });
    const pending = await ask('pending');
    clock.advance(10 * 60_000);
    const recent = await ask('recent');
    await registry.reject(recent.confirmationId, { rejectedBy: 'lead-2' });
    const pruned = await registry.prune({ olderThanMs: 5 * 60_000 });
    expect(pruned).toEqual({ ok: true, deleted: 2 });
    const left = await registry.confirmations.list();
    expect(left.ok && left.confirmations.map((c) => c.id).sort()).toEqual(
      [pending.confirmationId, recent.confirmationId].sort(),
    );
  });

  it('refuses an olderThanMs that is not a sensible number, and answers STORE_FAILED for a broken store', async () => {
    const { registry } = registryWith(recordingSendTool().tool);
    for (const olderThanMs of [-1, Number.NaN, '60000', undefined, 10 ** 13]) {
      await expect(registry.prune({ olderThanMs } as never)).resolves.toMatchObject({
        code: 'INVALID_OPTION',
      });
    }
    const broken = { ...createMemoryStore(), prune: () => Promise.reject(new Error('disk gone')) };
    const other = registryWith(recordingSendTool().tool, {}, broken).registry;
    await expect(other.prune({ olderThanMs: 0 })).resolves.toMatchObject({ ok: false, code: 'STORE_FAILED' });
  });
});

describe('the approval deliver is handed', () => {
  it('names the approver that was recorded and carries a working signal', async () => {
    let seen: Approval | undefined;
    const { tool } = recordingSendTool('mail.send', () => 1, {
      deliver: (_p: unknown, approval: Approval) => {
        seen = approval;
        return approval.signal.aborted;
      },
    });
    const { registry } = registryWith(tool);
    const asked = await registry.invoke('mail.send', { text: 'x' });
    if (!asked.ok || !asked.requiresConfirm) throw new Error('expected a confirmation');
    await expect(registry.confirm(asked.confirmationId, { approvedBy: 'lead-2' })).resolves.toMatchObject({
      ok: true,
      data: false,
    });
    expect(seen).toMatchObject({ confirmationId: asked.confirmationId, approvedBy: 'lead-2' });
  });
});

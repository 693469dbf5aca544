import { createHash } from 'node:crypto';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { createMemoryStore } from 'graded-tools';
import { createSqliteStore } from 'graded-tools/sqlite';
import type { ConfirmationStore } from 'graded-tools/store';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp-dir.js';
import { desk, T0 } from './setup.js';

const dir = tempDir('graded-tools-links-');
afterAll(() => dir.remove());

const MINUTE = 60_000;
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe('registry.approvalLinks', () => {
  it('issues a 256-bit token bound to the confirmation, its digest and the approver, until it expires', async () => {
    const { registry, ask } = desk();
    const asked = await ask();
    const issued = await registry.approvalLinks.issue(asked.confirmationId, {
      approver: { id: 'lead-2', name: 'Li', flags: { outbound: true } },
      ttlMs: 10 * MINUTE,
    });
    expect(issued).toMatchObject({ ok: true, expiresAt: new Date(T0 + 10 * MINUTE).toISOString() });
    if (!issued.ok) return;
    expect(issued.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const opened = await registry.approvalLinks.open(issued.token, asked.confirmationId);
    expect(opened).toMatchObject({
      ok: true,
      approver: { id: 'lead-2', name: 'Li', flags: { outbound: true } },
      confirmation: { id: asked.confirmationId, digest: asked.digest, status: 'pending' },
    });
  });

  it('never outlives its confirmation: the default, and a longer ttl, end when it expires', async () => {
    const { registry, ask } = desk();
    const asked = await ask();
    for (const ttlMs of [undefined, 1_000 * 24 * 60 * MINUTE]) {
      const issued = await registry.approvalLinks.issue(asked.confirmationId, { approver: 'lead-2', ttlMs });
      expect(issued).toMatchObject({ ok: true, expiresAt: asked.expiresAt });
    }
  });

  it('opens as often as asked without being used, and is spent by the one confirm', async () => {
    const { registry, ask } = desk();
    const asked = await ask();
    const issued = await registry.approvalLinks.issue(asked.confirmationId, { approver: 'lead-2' });
    if (!issued.ok) throw new Error(issued.error);
    for (let i = 0; i < 3; i++)
      expect((await registry.approvalLinks.open(issued.token, asked.confirmationId)).ok).toBe(true);
    expect((await registry.confirm(asked.confirmationId, { link: issued.token })).ok).toBe(true);
    for (const again of [
      await registry.confirm(asked.confirmationId, { link: issued.token }),
      await registry.approvalLinks.open(issued.token, asked.confirmationId),
    ])
      expect(again).toMatchObject({ ok: false, code: 'LINK_REFUSED', reason: 'used' });
  });

  it('of concurrent confirms through one link, exactly one delivers', async () => {
    const { registry, ask } = desk();
    const asked = await ask();
    const issued = await registry.approvalLinks.issue(asked.confirmationId, { approver: 'lead-2' });
    if (!issued.ok) throw new Error(issued.error);
    const uses = await Promise.all(
      [1, 2, 3, 4, 5].map(() => registry.confirm(asked.confirmationId, { link: issued.token })),
    );
    expect(uses.filter((u) => u.ok)).toHaveLength(1);
    // The others lost the claim that spends the link: already decided (or the link already used).
    for (const lost of uses.filter((u) => !u.ok))
      expect(['ALREADY_DECIDED', 'LINK_REFUSED']).toContain(!lost.ok && lost.code);
  });

  it('opens nothing but its own confirmation, and looks the same as no link at all there', async () => {
    const { registry, ask } = desk();
    const a = await ask('A');
    const b = await ask('B');
    const issued = await registry.approvalLinks.issue(a.confirmationId, { approver: 'lead-2' });
    if (!issued.ok) throw new Error(issued.error);
    const stray = await registry.confirm(b.confirmationId, { link: issued.token });
    const made = await registry.approvalLinks.open('x'.repeat(43), b.confirmationId);
    expect(stray).toMatchObject({ ok: false, code: 'LINK_REFUSED', reason: 'unknown' });
    expect(stray).toEqual(made);
    for (const token of [undefined, 42, '', 'short', `${issued.token}x`, { toString: () => issued.token }])
      expect(await registry.approvalLinks.open(token, a.confirmationId)).toMatchObject({ reason: 'unknown' });
    // None of that spent it.
    expect((await registry.confirm(a.confirmationId, { link: issued.token })).ok).toBe(true);
  });

  it('refuses once it expires, before its confirmation does', async () => {
    const { registry, ask, clock } = desk();
    const asked = await ask();
    const issued = await registry.approvalLinks.issue(asked.confirmationId, {
      approver: 'lead-2',
      ttlMs: MINUTE,
    });
    if (!issued.ok) throw new Error(issued.error);
    clock.advance(MINUTE);
    expect(await registry.confirm(asked.confirmationId, { link: issued.token })).toMatchObject({
      ok: false,
      code: 'LINK_REFUSED',
      reason: 'expired',
    });
    expect((await registry.confirmations.get(asked.confirmationId)).ok).toBe(true);
  });

  it('refuses a link whose confirmation was decided, or whose stored payload changed since', async () => {
    const memory = createMemoryStore();
    let tampered: string | undefined;
    const store: ConfirmationStore = {
      ...memory,
      get: async (id) => {
        const c = await memory.get(id);
        return c !== undefined && id === tampered ? { ...c, payload: { text: 'Send me your password' } } : c;
      },
    };
    const { registry, ask } = desk({ confirmations: store });
    const decided = await ask('decided');
    const changed = await ask('changed');
    const links = await Promise.all(
      [decided, changed].map((c) => registry.approvalLinks.issue(c.confirmationId, { approver: 'lead-2' })),
    );
    const [forDecided, forChanged] = links.map((l) => (l.ok ? l.token : ''));
    await registry.reject(decided.confirmationId, { rejectedBy: 'lead-3' });
    tampered = changed.confirmationId;
    expect(await registry.confirm(decided.confirmationId, { link: forDecided ?? '' })).toMatchObject({
      code: 'ALREADY_DECIDED',
    });
    expect(await registry.confirm(changed.confirmationId, { link: forChanged ?? '' })).toMatchObject({
      code: 'PAYLOAD_CHANGED',
    });
  });

  it('is not issued for what cannot be confirmed, nor with unusable options', async () => {
    const { registry, ask, clock } = desk();
    const asked = await ask();
    const expect_ = async (options: unknown, code: string, id = asked.confirmationId) =>
      expect(await registry.approvalLinks.issue(id, options as never)).toMatchObject({ ok: false, code });
    await expect_({ approver: 'lead-2' }, 'CONFIRMATION_NOT_FOUND', 'no-such-confirmation');
    await expect_({ approver: '' }, 'INVALID_OPTION');
    await expect_({ approver: { name: 'no id' } }, 'INVALID_OPTION');
    await expect_({}, 'INVALID_OPTION');
    await expect_(undefined, 'INVALID_OPTION');
    await expect_({ approver: 'lead-2', ttlMs: 0 }, 'INVALID_OPTION');
    await expect_({ approver: 'lead-2', ttlMs: 1.5 }, 'INVALID_OPTION');
    await expect_({ approver: 'lead-2', ttlMs: '60000' }, 'INVALID_OPTION');
    await expect_(
      {
        get approver() {
          throw new Error('a getter that throws');
        },
      },
      'INVALID_OPTION',
    );
    clock.advance(24 * 60 * MINUTE);
    await expect_({ approver: 'lead-2' }, 'EXPIRED');
  });

  it('under four eyes, makes no link for the person who asked: they could never use it', async () => {
    const { registry, ask } = desk({ requireDifferentApprover: true });
    const asked = await ask();
    expect(await registry.approvalLinks.issue(asked.confirmationId, { approver: 'agent-7' })).toMatchObject({
      ok: false,
      code: 'SAME_PERSON',
    });
    expect((await registry.approvalLinks.issue(asked.confirmationId, { approver: 'lead-2' })).ok).toBe(true);
  });

  it('copies the approver once, keeping only boolean flags', async () => {
    const { registry, ask } = desk();
    const asked = await ask();
    const flags: Record<string, unknown> = { outbound: true, beta: 'yes' };
    Object.defineProperty(flags, '__proto__', { value: true, enumerable: true });
    const approver = { id: 'lead-2', flags, scope: 'desk', extra: 'dropped' };
    const issued = await registry.approvalLinks.issue(asked.confirmationId, { approver: approver as never });
    approver.id = 'someone-else';
    if (!issued.ok) throw new Error(issued.error);
    const opened = await registry.approvalLinks.open(issued.token, asked.confirmationId);
    if (!opened.ok) throw new Error(opened.error);
    expect(opened.approver.id).toBe('lead-2');
    expect(opened.approver.scope).toBe('desk');
    expect(Object.entries(opened.approver.flags ?? {})).toEqual([
      ['outbound', true],
      ['__proto__', true],
    ]);
    expect(Object.getPrototypeOf(opened.approver.flags)).toBe(Object.prototype);
  });

  it('says so when the store keeps no links, and turns a failing store into STORE_FAILED', async () => {
    const memory = createMemoryStore();
    const { saveLink: _s, findLink: _f, useLink: _u, ...bare } = memory;
    const plain = desk({ confirmations: bare as ConfirmationStore });
    const asked = await plain.ask();
    expect(
      await plain.registry.approvalLinks.issue(asked.confirmationId, { approver: 'lead-2' }),
    ).toMatchObject({
      ok: false,
      code: 'INVALID_OPTION',
    });
    expect(plain.registry.approvalLinks.supported).toBe(false);
    const failing = desk({
      confirmations: { ...memory, saveLink: () => Promise.reject(new Error('disk full')) },
    });
    const other = await failing.ask();
    expect(
      await failing.registry.approvalLinks.issue(other.confirmationId, { approver: 'lead-2' }),
    ).toMatchObject({
      ok: false,
      code: 'STORE_FAILED',
    });
  });

  it('reports each issue, use and refusal to onEvent, without the token or the payload', async () => {
    const { registry, ask, events } = desk();
    const asked = await ask('A private refund note');
    const issued = await registry.approvalLinks.issue(asked.confirmationId, { approver: 'lead-2' });
    if (!issued.ok) throw new Error(issued.error);
    await registry.approvalLinks.open(issued.token, asked.confirmationId);
    await registry.confirm(asked.confirmationId, { link: issued.token });
    await registry.confirm(asked.confirmationId, { link: issued.token });
    const linkEvents = events.filter((e) => e.type === 'link');
    expect(linkEvents).toEqual([
      { type: 'link', action: 'issued', confirmationId: asked.confirmationId, approver: 'lead-2', at: T0 },
      { type: 'link', action: 'used', confirmationId: asked.confirmationId, approver: 'lead-2', at: T0 },
      {
        type: 'link',
        action: 'refused',
        confirmationId: asked.confirmationId,
        code: 'LINK_REFUSED',
        reason: 'used',
        at: T0,
      },
    ]);
    expect(JSON.stringify(events)).not.toContain(issued.token);
    expect(JSON.stringify(linkEvents)).not.toContain('private refund');
  });

  it('stores only the SHA-256 of the token: the SQLite file never holds the token', async () => {
    const path = join(dir.path, 'links.db');
    const store = createSqliteStore({ path });
    const { registry, ask } = desk({ confirmations: store });
    const asked = await ask();
    const issued = await registry.approvalLinks.issue(asked.confirmationId, { approver: 'lead-2' });
    if (!issued.ok) throw new Error(issued.error);
    store.close();
    const db = new Database(path, { readonly: true });
    const rows = db.prepare('SELECT * FROM graded_tools_confirmations_links').all() as Record<
      string,
      unknown
    >[];
    db.close();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      token_hash: sha256(issued.token),
      confirmation_id: asked.confirmationId,
    });
    expect(JSON.stringify(rows)).not.toContain(issued.token);
    const { readFileSync, readdirSync } = await import('node:fs');
    for (const file of readdirSync(dir.path).filter((name) => name.startsWith('links.db')))
      expect(readFileSync(join(dir.path, file)).includes(issued.token)).toBe(false);
  });
});

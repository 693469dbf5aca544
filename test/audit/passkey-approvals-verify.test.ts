import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { AuditEntry } from 'graded-tools';
import { createSqliteStore } from 'graded-tools/sqlite';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { PLACE, passkeyDesk } from '../confirm/passkeys/passkey-desk.js';
import { tempDir } from '../helpers/temp-dir.js';

const dir = tempDir();
afterAll(() => dir.remove());

async function run(args: string[]) {
  const out: string[] = [];
  const error: string[] = [];
  const code = await main(args, {
    cwd: dir.path,
    out: (line) => out.push(line),
    error: (line) => error.push(line),
  });
  return { code, out: out.join('\n'), error: error.join('\n') };
}

describe('passkey approvals checked offline, from the log alone', () => {
  it('names an approval added to the database by hand, and one whose assertion belongs to another payload', async () => {
    const path = join(dir.path, 'forged.db');
    const store = createSqliteStore({ path });
    const { registry, ask, enrol, challenge } = passkeyDesk(store);
    const li = await enrol('li');
    const honest = await ask('mail.send', { text: 'honest' });
    const done = await registry.confirm(honest.confirmationId, {
      approvedBy: 'li',
      digest: honest.digest,
      passkey: li.sign(await challenge('li', honest)),
    });
    expect(done).toMatchObject({ ok: true });
    const forgedPlain = await ask('mail.send', { text: 'forged, no assertion' });
    const forgedCopied = await ask('mail.send', { text: 'forged, copied assertion' });
    expect(await registry.audit.verify({ approvals: true })).toMatchObject({
      ok: true,
      approvals: { checked: 1, problems: [] },
    });

    // Someone who can write the database adds two approvals; the store's sequencing chains them.
    const entries: AuditEntry[] = [];
    for await (const line of registry.audit.export()) entries.push(JSON.parse(line) as AuditEntry);
    const proof = entries.find(
      (e) => e.confirmationId === honest.confirmationId && e.action === 'confirmed',
    )?.detail;
    expect(proof?.passkeyCredentialId).toBe(li.credentialId);
    const db = new Database(path);
    const insert = db.prepare(
      'INSERT INTO "graded_tools_confirmations_audit" (at, kind, confirmation_id, tool, by_id, action, detail) VALUES (?, ?, ?, ?, ?, ?, ?)',
    );
    const now = Date.now();
    insert.run(
      now,
      'confirmation',
      forgedPlain.confirmationId,
      'mail.send',
      'li',
      'confirmed',
      JSON.stringify({ digest: forgedPlain.digest, status: 'delivering' }),
    );
    insert.run(
      now,
      'confirmation',
      forgedCopied.confirmationId,
      'mail.send',
      'li',
      'confirmed',
      JSON.stringify({ ...proof, digest: forgedCopied.digest }),
    );
    db.close();
    await registry.audit.sequence();

    // The hash chain alone covers them: it proves order, not who approved.
    expect(await registry.audit.verify()).toMatchObject({ ok: true });
    const checked = await registry.audit.verify({ approvals: true });
    expect(checked).toMatchObject({
      ok: false,
      reason: 'approvals',
      approvals: {
        checked: 3,
        problems: [
          { confirmationId: forgedPlain.confirmationId, by: 'li', reason: 'no-assertion' },
          { confirmationId: forgedCopied.confirmationId, by: 'li', reason: 'other-payload' },
        ],
      },
    });
    store.close();

    const store2 = ['--store', `sqlite:${path}`];
    expect((await run(['audit', 'verify', ...store2])).code).toBe(0);
    const cli = await run([
      'audit',
      'verify',
      ...store2,
      '--approvals',
      '--rp-id',
      PLACE.rpID,
      '--origin',
      PLACE.origin,
    ]);
    expect(cli.code).toBe(1);
    expect(cli.out).toContain(`(no-assertion): confirmation ${forgedPlain.confirmationId} by li`);
    expect(cli.out).toContain(`(other-payload): confirmation ${forgedCopied.confirmationId} by li`);
    expect((await run(['audit', 'verify', ...store2, '--approvals'])).code).toBe(2);
  });

  it('names a key removed before the approval, and a verify without passkeys says it cannot check', async () => {
    const path = join(dir.path, 'removed.db');
    const store = createSqliteStore({ path });
    const { registry, ask, enrol, challenge } = passkeyDesk(store);
    const li = await enrol('li');
    const asked = await ask();
    const passkey = li.sign(await challenge('li', asked));
    expect(
      await registry.confirm(asked.confirmationId, { approvedBy: 'li', digest: asked.digest, passkey }),
    ).toMatchObject({ ok: true });
    // An approval entry replayed after the key was removed (forged: moved after the removal).
    const entries: AuditEntry[] = [];
    for await (const line of registry.audit.export()) entries.push(JSON.parse(line) as AuditEntry);
    const confirmed = entries.find((e) => e.action === 'confirmed');
    expect(
      await registry.passkeys.remove({ approver: 'li', credentialId: li.credentialId, by: 'li' }),
    ).toEqual({ ok: true });
    const other = await ask('mail.send', { text: 'later' });
    const db = new Database(path);
    db.prepare(
      'INSERT INTO "graded_tools_confirmations_audit" (at, kind, confirmation_id, tool, by_id, action, detail) VALUES (?, ?, ?, ?, ?, ?, ?)',
    ).run(
      Date.now(),
      'confirmation',
      other.confirmationId,
      'mail.send',
      'li',
      'confirmed',
      JSON.stringify({ ...confirmed?.detail, digest: other.digest }),
    );
    db.close();
    const checked = await registry.audit.verify({ approvals: true });
    expect(checked).toMatchObject({
      ok: false,
      reason: 'approvals',
      approvals: { problems: [{ confirmationId: other.confirmationId, reason: 'removed-key' }] },
    });
    store.close();
    const { createSqliteStore: open } = await import('graded-tools/sqlite');
    const plain = new (await import('graded-tools')).ToolRegistry({ confirmations: open({ path }) });
    expect(await plain.audit.verify({ approvals: true })).toMatchObject({ ok: false, reason: 'unreadable' });
  });
});

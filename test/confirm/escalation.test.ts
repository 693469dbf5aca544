import { join } from 'node:path';
import type { ApprovalNotice, Notifier, SendToolDefinition } from 'graded-tools';
import { ToolDefinitionError, ToolRegistry } from 'graded-tools';
import { createPostgresStore } from 'graded-tools/postgres';
import { createSqliteStore } from 'graded-tools/sqlite';
import type { ConfirmationStore } from 'graded-tools/store';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { emailContent } from '../../src/notify/email-notifier.js';
import { slackMessage } from '../../src/notify/slack-notifier.js';
import { describePostgres, storeTables, uniqueTable } from '../helpers/postgres.js';
import { tempDir } from '../helpers/temp-dir.js';
import { notice } from '../notify/support/notices.js';
import { manualClock, recordingSendTool, registryWith } from './setup.js';

const MINUTE = 60_000;

/** A channel that records every notice it is handed. */
function recordingChannel(name = 'recording') {
  const notices: ApprovalNotice[] = [];
  const channel: Notifier = {
    channel: name,
    async send(n, { onAttempt }) {
      notices.push(n);
      onAttempt?.({ channel: name, noticeId: n.id, attempt: 1, ok: true, ms: 1 });
      return { ok: true };
    },
  };
  return { channel, notices };
}

/** Lets the notices' sends (never on the caller's stack) run. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

function escalatingTool(leads: Notifier, heads: Notifier) {
  return recordingSendTool('mail.send', undefined, {
    escalate: [
      { afterMs: 15 * MINUTE, to: [leads] },
      { afterMs: 30 * MINUTE, to: [heads] },
    ],
  }).tool;
}

async function ask(registry: ToolRegistry, text = 'hello'): Promise<string> {
  const asked = await registry.invoke('mail.send', { text }, { actor: 'agent-7' });
  if (!asked.ok || !asked.requiresConfirm) throw new Error('expected a pending confirmation');
  return asked.confirmationId;
}

describe('escalation', () => {
  it('tells each step once, in order, after its afterMs; records it and reports it', async () => {
    const leads = recordingChannel('leads');
    const heads = recordingChannel('heads');
    const { registry, clock, events } = registryWith(escalatingTool(leads.channel, heads.channel));
    const id = await ask(registry);
    clock.advance(15 * MINUTE - 1);
    expect(await registry.sweep()).toMatchObject({ ok: true, escalated: [] });
    clock.advance(1);
    const first = await registry.sweep();
    expect(first.ok && first.escalated.map((e) => [e.confirmation.id, e.step])).toEqual([[id, 1]]);
    await settle();
    expect(leads.notices).toHaveLength(1);
    expect(leads.notices[0]).toMatchObject({
      id: `${id}.escalated.1`,
      kind: 'escalated',
      escalation: { step: 1, afterMs: 15 * MINUTE },
      confirmation: { id, status: 'pending' },
    });
    expect(heads.notices).toEqual([]);

    expect(await registry.sweep()).toMatchObject({ ok: true, escalated: [] });
    clock.advance(10 * MINUTE);
    await registry.sweep();
    await settle();
    expect(leads.notices).toHaveLength(1);
    expect(heads.notices).toEqual([]);

    clock.advance(5 * MINUTE);
    const second = await registry.sweep();
    expect(second.ok && second.escalated.map((e) => e.step)).toEqual([2]);
    await registry.sweep();
    await settle();
    expect(leads.notices).toHaveLength(1);
    expect(heads.notices.map((n) => n.id)).toEqual([`${id}.escalated.2`]);

    const read = await registry.confirmations.get(id);
    const history = read.ok ? read.confirmation.history : [];
    expect(history.slice(1)).toEqual([
      { at: new Date(clock.now() - 15 * MINUTE).toISOString(), status: 'pending', escalated: { step: 1 } },
      { at: new Date(clock.now()).toISOString(), status: 'pending', escalated: { step: 2 } },
    ]);
    const actions = events.flatMap((e) => (e.type === 'confirmation' ? [e.action] : []));
    expect(actions).toEqual(['created', 'escalated', 'escalated']);
    const kinds = events.flatMap((e) => (e.type === 'notify' ? [[e.channel, e.kind]] : []));
    expect(kinds).toEqual([
      ['leads', 'escalated'],
      ['heads', 'escalated'],
    ]);
    // Still one pending confirmation, confirmable as before.
    await expect(registry.confirm(id, { approvedBy: 'lead-2' })).resolves.toMatchObject({ ok: true });
  });

  it('never escalates a decided confirmation, and sends both steps when a sweep comes late', async () => {
    const leads = recordingChannel('leads');
    const heads = recordingChannel('heads');
    const { registry, clock } = registryWith(escalatingTool(leads.channel, heads.channel));
    const rejected = await ask(registry, 'no');
    const confirmed = await ask(registry, 'yes');
    const waiting = await ask(registry, 'wait');
    await registry.reject(rejected, { rejectedBy: 'lead-2' });
    await registry.confirm(confirmed, { approvedBy: 'lead-2' });
    clock.advance(45 * MINUTE);
    const swept = await registry.sweep();
    expect(swept.ok && swept.escalated.map((e) => [e.confirmation.id, e.step])).toEqual([
      [waiting, 1],
      [waiting, 2],
    ]);
    await settle();
    expect([...leads.notices, ...heads.notices].map((n) => n.confirmation.id)).toEqual([waiting, waiting]);
    clock.advance(20 * MINUTE); // past expiry: expired, never escalated again
    expect(await registry.sweep()).toMatchObject({ ok: true, escalated: [] });
  });

  it("takes the registry's notify.escalate for tools without their own", async () => {
    const approvers = recordingChannel('approvers');
    const oncall = recordingChannel('oncall');
    const own = recordingChannel('own');
    const clock = manualClock();
    const registry = new ToolRegistry({
      now: clock.now,
      notify: { to: [approvers.channel], escalate: [{ afterMs: 5 * MINUTE, to: [oncall.channel] }] },
    })
      .register(recordingSendTool('mail.send').tool)
      .register(
        recordingSendTool('sms.send', undefined, { escalate: [{ afterMs: MINUTE, to: [own.channel] }] }).tool,
      );
    const mail = await ask(registry);
    const sms = await registry.invoke('sms.send', { text: 'hi' }, { actor: 'agent-7' });
    if (!sms.ok || !sms.requiresConfirm) throw new Error('expected a pending confirmation');
    clock.advance(5 * MINUTE);
    await registry.sweep();
    await settle();
    expect(oncall.notices.map((n) => n.confirmation.id)).toEqual([mail]);
    expect(own.notices.map((n) => n.confirmation.id)).toEqual([sms.confirmationId]);
    expect(approvers.notices.map((n) => n.kind)).toEqual(['created', 'created']);
  });

  it('refuses escalation steps that are out of order, empty or not channels, at register', () => {
    const channel = recordingChannel().channel;
    const bad: unknown[] = [
      [],
      [{ afterMs: 0, to: [channel] }],
      [{ afterMs: 10, to: [] }],
      [{ afterMs: 10, to: [{ channel: 'x' }] }],
      [
        { afterMs: 20, to: [channel] },
        { afterMs: 10, to: [channel] },
      ],
      'soon',
    ];
    for (const escalate of bad) {
      const { tool } = recordingSendTool('mail.send', undefined, { escalate } as Partial<SendToolDefinition>);
      expect(() => new ToolRegistry().register(tool)).toThrow(ToolDefinitionError);
    }
    expect(() =>
      new ToolRegistry().register({
        name: 'kb.write',
        description: 'Write.',
        sideEffect: 'write',
        inputSchema: { type: 'object' },
        run: () => 1,
        escalate: [{ afterMs: 10, to: [channel] }],
      } as never),
    ).toThrow(/only for `send` tools/);
    expect(
      () => new ToolRegistry({ notify: { to: [channel], escalate: [{ afterMs: -1, to: [channel] }] } }),
    ).toThrow(/notify\.escalate\[0\]\.afterMs/);
  });

  it('Slack and email say how long it has waited, in English and Chinese', () => {
    const escalated = notice({ kind: 'escalated', escalation: { step: 1, afterMs: 15 * MINUTE } });
    expect(JSON.stringify(slackMessage(escalated, false))).toContain(
      'Still waiting after 15 minutes — escalated',
    );
    expect(emailContent(escalated, { includePayload: false }).text).toContain(
      'Still waiting after 15 minutes — escalated',
    );
    const zh = emailContent({ ...escalated, locale: 'zh-CN' }, { includePayload: false });
    expect(zh.subject).toContain('升级');
    expect(zh.text).toContain('15 分钟');
  });
});

/** Two registries over one store, both sweeping at once: each step goes out once. */
async function expectOneNoticePerStep(
  open: () => ConfirmationStore,
  close: (s: ConfirmationStore) => Promise<void>,
) {
  const leads = recordingChannel('leads');
  const heads = recordingChannel('heads');
  const clock = manualClock(Date.now() + Math.floor(Math.random() * 1_000) * 3_600_000);
  const stores = [open(), open(), open()];
  const registries = stores.map((store) =>
    new ToolRegistry({ now: clock.now, confirmations: store }).register(
      escalatingTool(leads.channel, heads.channel),
    ),
  );
  const ids = await Promise.all(
    Array.from({ length: 6 }, (_, i) => ask(registries[i % 3] as ToolRegistry, `m${i}`)),
  );
  for (const minutes of [15, 15]) {
    clock.advance(minutes * MINUTE);
    const swept = await Promise.all(registries.map((r) => r.sweep()));
    expect(swept.every((s) => s.ok)).toBe(true);
  }
  await settle();
  expect(leads.notices.map((n) => n.confirmation.id).sort()).toEqual([...ids].sort());
  expect(heads.notices.map((n) => n.confirmation.id).sort()).toEqual([...ids].sort());
  for (const store of stores) await close(store);
}

const dir = tempDir();
afterAll(() => dir.remove());

describe('escalation across instances', () => {
  it('two registries sharing one SQLite file send one notice per step', async () => {
    const path = join(dir.path, 'escalate.db');
    await expectOneNoticePerStep(
      () => createSqliteStore({ path }),
      async (store) => (store as ReturnType<typeof createSqliteStore>).close(),
    );
  });
});

const table = uniqueTable('gt_escalate');
let admin: pg.Pool | undefined;
afterAll(async () => {
  if (admin === undefined) return;
  await admin.query(`DROP TABLE IF EXISTS ${storeTables(table)}`);
  await admin.end();
});

await describePostgres('escalation across instances on PostgreSQL', (url) => {
  it('registries sharing one database send one notice per step', async () => {
    admin = new pg.Pool({ connectionString: url, max: 1 });
    await createPostgresStore({ connectionString: url, table }).migrate();
    await expectOneNoticePerStep(
      () => createPostgresStore({ connectionString: url, table, poolConfig: { max: 4 } }),
      async (store) => (store as ReturnType<typeof createPostgresStore>).close(),
    );
  });
});

import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { ApprovalNotice, Notifier, NotifyEvent, RegistryEvent } from 'graded-tools';
import { createMemoryStore, ToolDefinitionError } from 'graded-tools';
import { describe, expect, it, vi } from 'vitest';
import { desk } from './setup.js';

/** A channel that records what it was handed (the real channels are tested against real receivers). */
function recordingChannel(
  behave: (notice: ApprovalNotice) => Promise<{ ok: boolean; error?: string }> = async () => ({ ok: true }),
) {
  const notices: ApprovalNotice[] = [];
  const channel: Notifier = {
    channel: 'recording',
    async send(notice, { onAttempt }) {
      notices.push(notice);
      const outcome = await behave(notice);
      onAttempt?.({ channel: 'recording', noticeId: notice.id, attempt: 1, ok: outcome.ok, ms: 1 });
      return outcome;
    },
  };
  return { channel, notices };
}

const until = async (check: () => boolean) => {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 5));
  expect(check()).toBe(true);
};

describe('telling approvers', () => {
  it('tells every channel that a send waits, with a link and no payload, then tells the asker', async () => {
    const { channel, notices } = recordingChannel();
    const { registry, ask } = desk({
      notify: { to: [channel], consoleUrl: 'https://desk.example/approvals/' },
    });
    const asked = await ask('Refund issued.', { actor: 'li' });
    await until(() => notices.length === 1);
    expect(notices[0]).toMatchObject({
      id: `${asked.confirmationId}.created`,
      kind: 'created',
      link: `https://desk.example/approvals/confirmations/${asked.confirmationId}`,
      confirmation: {
        id: asked.confirmationId,
        tool: 'message.send',
        title: 'Send a message to the customer',
        actor: 'li',
        status: 'pending',
      },
    });
    expect(notices[0]).not.toHaveProperty('payload');
    expect(JSON.stringify(notices[0])).not.toContain('Refund issued.');
    await registry.reject(asked.confirmationId, { rejectedBy: 'lead-2', reason: 'No.' });
    await until(() => notices.length === 2);
    expect(notices[1]).toMatchObject({
      kind: 'decided',
      recipient: 'li',
      confirmation: { status: 'rejected' },
    });
  });

  it('puts the payload in only when told to', async () => {
    const { channel, notices } = recordingChannel();
    const { ask } = desk({ notify: { to: [channel], includePayload: true } });
    await ask('Refund issued.');
    await until(() => notices.length === 1);
    expect(notices[0]?.payload).toMatchObject({ text: 'Refund issued.' });
  });

  it('never lets a hanging or throwing channel delay or fail a confirm; failures are events', async () => {
    const hanging: Notifier = { channel: 'hanging', send: () => new Promise(() => {}) };
    const throwing: Notifier = {
      channel: 'throwing',
      send: () => {
        throw new Error('boom');
      },
    };
    const events: RegistryEvent[] = [];
    const { registry, ask, data } = desk({
      notify: { to: [hanging, throwing] },
      onEvent: (event) => {
        events.push(event);
      },
    });
    const asked = await ask();
    const sent = await registry.confirm(asked.confirmationId, { approvedBy: 'lead-2', digest: asked.digest });
    expect(sent).toMatchObject({ ok: true });
    expect(data.outbox).toHaveLength(1);
    await until(() => events.some((e) => e.type === 'notify'));
    const failures = events.filter((e): e is NotifyEvent => e.type === 'notify');
    expect(failures[0]).toMatchObject({ channel: 'throwing', ok: false, kind: 'created' });
    expect(failures[0]?.error).toContain('boom');
  });

  it('lets go of a channel that never answers after five minutes, telling it to stop', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    try {
      const signals: AbortSignal[] = [];
      const hanging: Notifier = {
        channel: 'hanging',
        send: (_notice, { signal }) => {
          if (signal !== undefined) signals.push(signal);
          return new Promise(() => {});
        },
      };
      const events: RegistryEvent[] = [];
      const { ask } = desk({ notify: { to: [hanging] }, onEvent: (event) => void events.push(event) });
      await ask();
      await vi.waitFor(() => expect(signals).toHaveLength(1));
      expect(signals[0]?.aborted).toBe(false);
      await vi.advanceTimersByTimeAsync(5 * 60_000);
      expect(signals[0]?.aborted).toBe(true);
      const gaveUp = events.filter((e): e is NotifyEvent => e.type === 'notify');
      expect(gaveUp).toMatchObject([{ channel: 'hanging', ok: false, attempt: 0 }]);
      expect(gaveUp[0]?.error).toContain('no answer within 5 minutes');
    } finally {
      vi.useRealTimers();
    }
  });

  it('hands a channel at most 1,000 unanswered notices; past that each is an event, until it answers again', async () => {
    const answers: (() => void)[] = [];
    let handed = 0;
    const stuck: Notifier = {
      channel: 'stuck',
      send: () => {
        handed += 1;
        return new Promise((resolve) => answers.push(() => resolve({ ok: true })));
      },
    };
    const events: RegistryEvent[] = [];
    const { registry, ask } = desk({ notify: { to: [stuck] }, onEvent: (event) => void events.push(event) });
    for (let i = 0; i < 1_002; i++) await ask(`reply ${i}`);
    await until(() => handed === 1_000);
    const refused = () =>
      events.filter((e): e is NotifyEvent => e.type === 'notify' && (e.error ?? '').includes('1000 notices'));
    expect(refused()).toHaveLength(2);
    expect(refused()[0]).toMatchObject({ channel: 'stuck', kind: 'created', ok: false, attempt: 0 });
    for (const answer of answers.splice(0, 10)) answer();
    await until(() => true);
    const more = await ask('after it answered');
    await until(() => handed === 1_001);
    expect(refused()).toHaveLength(2);
    // Confirms never waited on any of it.
    const sent = await registry.confirm(more.confirmationId, { approvedBy: 'lead-2', digest: more.digest });
    expect(sent.ok).toBe(true);
  });

  it('never keeps the process alive: an app whose channel hangs still exits', async () => {
    const fixture = join(import.meta.dirname, '..', 'fixtures', 'hanging-channel-app.ts');
    // Five minutes would be the channel's deadline; a process waiting for it would hit this timeout.
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', fixture], {
      cwd: join(import.meta.dirname, '..', '..'),
      timeout: 60_000,
      env: { ...process.env, NODE_OPTIONS: '' },
    });
    expect(stdout.trim()).toBe('asked');
  }, 90_000);

  it('reminds once, from the sweep, what expires within remindBeforeMs', async () => {
    const { channel, notices } = recordingChannel();
    const base = createMemoryStore();
    const reminded = new Set<string>();
    // The flow's side of reminders; each store's own remindDue is in the store contract tests.
    const store = {
      ...base,
      async remindDue({ now, within }: { now: number; within: number }) {
        const { confirmations } = await base.list({ status: 'pending', limit: 1000 });
        const due = confirmations.filter((c) => {
          const expires = Date.parse(c.expiresAt);
          return expires > now && expires <= now + within && !reminded.has(c.id);
        });
        for (const c of due) reminded.add(c.id);
        return due;
      },
    };
    const { registry, ask, clock } = desk({
      confirmations: store,
      notify: { to: [channel], remindBeforeMs: 10 * 60_000 },
    });
    const asked = await ask();
    await until(() => notices.length === 1);
    expect(await registry.sweep()).toMatchObject({ ok: true, reminded: [] });
    clock.advance(55 * 60_000);
    const swept = await registry.sweep();
    expect(swept.ok && swept.reminded.map((c) => c.id)).toEqual([asked.confirmationId]);
    await until(() => notices.length === 2);
    expect(notices[1]).toMatchObject({ kind: 'reminder', id: `${asked.confirmationId}.reminder` });
    expect(await registry.sweep()).toMatchObject({ ok: true, reminded: [] });
    clock.advance(10 * 60_000);
    const expired = await registry.sweep();
    expect(expired.ok && expired.expired.map((c) => c.id)).toEqual([asked.confirmationId]);
    await until(() => notices.length === 3);
    expect(notices[2]).toMatchObject({ kind: 'decided', confirmation: { status: 'expired' } });
  });

  it('refuses a notify option that cannot work, at startup', () => {
    const make = (notify: unknown) => () => desk({ notify: notify as never });
    expect(make({ to: [] })).toThrow(ToolDefinitionError);
    expect(make({ to: [{ channel: 'x' }] })).toThrow(/send/);
    expect(make({ to: [recordingChannel().channel], consoleUrl: 'javascript:alert(1)' })).toThrow(
      /consoleUrl/,
    );
    expect(make({ to: [recordingChannel().channel], remindBeforeMs: 2 * 3_600_000 })).toThrow(
      /remindBeforeMs/,
    );
  });
});

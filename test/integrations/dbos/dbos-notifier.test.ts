import { type ApprovalNotice, ToolDefinitionError } from 'graded-tools';
import { type DbosSender, DECISION_TOPIC, dbosNotifier } from 'graded-tools/dbos';
import type { NotifyAttempt } from 'graded-tools/notify';
import { describe, expect, it } from 'vitest';

// The channel's own rules, against a recording sender. The real SDK on PostgreSQL is in durable-run.test.ts.

/** A sender that records every call and answers with `answer` (throws what it returns as an error). */
function recordingSender(answer: (call: number) => unknown = () => undefined) {
  const calls: unknown[][] = [];
  const sender: DbosSender = {
    async send(...args) {
      calls.push(args);
      const thrown = answer(calls.length);
      if (thrown !== undefined) throw thrown;
    },
  };
  return { sender, calls };
}

/** A notice as the registry makes it; `ref` and `decision` as the propose path adds them. */
function notice(overrides: Record<string, unknown> = {}, confirmation: Record<string, unknown> = {}) {
  return {
    id: 'c_9.decided.rejected',
    kind: 'decided',
    confirmation: {
      id: 'c_9',
      tool: 'message.send',
      title: 'Send a message',
      actor: 'agent:desk-bot',
      createdAt: '2026-12-02T00:00:00.000Z',
      expiresAt: '2026-12-02T00:30:00.000Z',
      status: 'rejected',
      ref: 'wf-4411',
      note: 'The customer asked twice.',
      ...confirmation,
    },
    decision: { at: '2026-12-02T00:05:00.000Z', by: 'li', note: 'wrong customer' },
    payload: { to: 'ana@example.com', text: 'secret draft' },
    recipient: 'agent:desk-bot',
    locale: 'en',
    ...overrides,
  } as unknown as ApprovalNotice;
}

class NonExistentWorkflow extends Error {
  readonly dbosErrorCode = 16;
}

describe('dbosNotifier', () => {
  it('sends a decided notice to the workflow its ref names, on DECISION_TOPIC, keyed by the notice id', async () => {
    const { sender, calls } = recordingSender();
    const attempts: NotifyAttempt[] = [];
    const result = await dbosNotifier({ client: sender }).send(notice(), {
      onAttempt: (a) => attempts.push(a),
    });
    expect(result).toEqual({ ok: true });
    expect(calls).toEqual([
      [
        'wf-4411',
        {
          confirmationId: 'c_9',
          status: 'rejected',
          at: '2026-12-02T00:05:00.000Z',
          by: 'li',
          note: 'wrong customer',
        },
        DECISION_TOPIC,
        'c_9.decided.rejected',
      ],
    ]);
    expect(attempts).toEqual([
      expect.objectContaining({ channel: 'dbos', noticeId: 'c_9.decided.rejected', ok: true }),
    ]);
  });

  it('puts nothing of the notice but the decision in the message: no payload, note of the asker or actor', async () => {
    const { sender, calls } = recordingSender();
    await dbosNotifier({ client: sender }).send(notice({ decision: undefined }, { status: 'expired' }), {});
    expect(calls[0]?.[1]).toEqual({ confirmationId: 'c_9', status: 'expired' });
  });

  it('takes created and reminder notices, and decided ones without a ref, without sending', async () => {
    const { sender, calls } = recordingSender();
    const channel = dbosNotifier({ client: sender });
    const results = [
      await channel.send(notice({ id: 'c_9.created', kind: 'created' }, { status: 'pending' }), {}),
      await channel.send(notice({ id: 'c_9.reminder', kind: 'reminder' }, { status: 'pending' }), {}),
      await channel.send(notice({}, { ref: undefined }), {}),
      await channel.send(notice({}, { ref: '' }), {}),
    ];
    expect(results).toEqual([{ ok: true }, { ok: true }, { ok: true }, { ok: true }]);
    expect(calls).toEqual([]);
  });

  it('refuses a ref that names no workflow once, without retrying', async () => {
    const { sender, calls } = recordingSender(
      () => new NonExistentWorkflow('Sent to non-existent destination'),
    );
    const result = await dbosNotifier({ client: sender, backoffMs: 0 }).send(notice(), {});
    expect(result).toEqual({ ok: false, error: 'no DBOS workflow "wf-4411" (the confirmation\'s ref)' });
    expect(calls).toHaveLength(1);
  });

  it('retries a failing system database and reports every attempt', async () => {
    const { sender, calls } = recordingSender((call) =>
      call < 3 ? new Error('connection refused') : undefined,
    );
    const attempts: NotifyAttempt[] = [];
    const result = await dbosNotifier({ client: sender, retries: 3, backoffMs: 0 }).send(notice(), {
      onAttempt: (a) => attempts.push(a),
    });
    expect(result).toEqual({ ok: true });
    expect(calls).toHaveLength(3);
    expect(attempts.map((a) => [a.attempt, a.ok, a.error])).toEqual([
      [1, false, 'connection refused'],
      [2, false, 'connection refused'],
      [3, true, undefined],
    ]);
  });

  it('gives up after its retries with the last error, and never rejects', async () => {
    const { sender, calls } = recordingSender(() => 'not even an Error');
    const result = await dbosNotifier({ client: sender, retries: 1, backoffMs: 0 }).send(notice(), {});
    expect(result).toEqual({ ok: false, error: 'not even an Error' });
    expect(calls).toHaveLength(2);
  });

  it('stops when the registry aborts it', async () => {
    const { sender, calls } = recordingSender();
    const result = await dbosNotifier({ client: sender }).send(notice(), {
      signal: AbortSignal.abort('shutdown'),
    });
    expect(result).toEqual({ ok: false, error: 'aborted: shutdown' });
    expect(calls).toEqual([]);
  });

  it('refuses a client without send and retry settings that make no sense, at setup', () => {
    const setups = [
      () => dbosNotifier({ client: {} as DbosSender }),
      () => dbosNotifier({ retries: -1 }),
      () => dbosNotifier({ backoffMs: Number.NaN }),
    ];
    for (const setup of setups) {
      expect(setup).toThrow(ToolDefinitionError);
      expect(setup).toThrow(expect.objectContaining({ code: 'INVALID_OPTION' }));
    }
  });

  it('is a channel named dbos', () => {
    expect(dbosNotifier().channel).toBe('dbos');
  });
});

describe('dbosNotifier with a notice it cannot read', () => {
  it('answers a failure instead of rejecting', async () => {
    const { sender, calls } = recordingSender();
    const hostile = {
      get kind(): never {
        throw new Error('revoked');
      },
    } as unknown as ApprovalNotice;
    expect(await dbosNotifier({ client: sender }).send(hostile, {})).toEqual({
      ok: false,
      error: 'the notice could not be read: revoked',
    });
    expect(calls).toEqual([]);
  });
});

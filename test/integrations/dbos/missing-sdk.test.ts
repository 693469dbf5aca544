import type { ApprovalNotice, NotifyAttempt } from 'graded-tools';
import { dbosNotifier } from 'graded-tools/dbos';
import { expect, it, vi } from 'vitest';

// An app that uses dbosNotifier() without a client and without the SDK installed: the import fails.
vi.mock('@dbos-inc/dbos-sdk', () => {
  throw new Error("Cannot find package '@dbos-inc/dbos-sdk'");
});

const notice = {
  id: 'c_1.decided.rejected',
  kind: 'decided',
  confirmation: {
    id: 'c_1',
    tool: 'message.send',
    title: 'Send',
    createdAt: '2026-12-02T00:00:00.000Z',
    expiresAt: '2026-12-02T00:30:00.000Z',
    status: 'rejected',
    ref: 'wf-1',
  },
  locale: 'en',
} satisfies ApprovalNotice;

it('without the SDK and without a client, a send says so once, without retrying, and never rejects', async () => {
  const attempts: NotifyAttempt[] = [];
  const result = await dbosNotifier({ backoffMs: 0 }).send(notice, { onAttempt: (a) => attempts.push(a) });
  expect(result).toEqual({
    ok: false,
    error: expect.stringContaining('@dbos-inc/dbos-sdk could not be loaded'),
  });
  expect(attempts).toHaveLength(1);
});

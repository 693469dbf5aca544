import type { ApprovalNotice } from 'graded-tools/notify';

/** A notice as the registry would make it, with overrides. */
export function notice(overrides: Partial<ApprovalNotice> = {}): ApprovalNotice {
  return {
    id: 'c_4f1a.created',
    kind: 'created',
    confirmation: {
      id: 'c_4f1a',
      tool: 'message.send',
      title: 'Send a message to a customer',
      actor: 'ana@example.com',
      createdAt: '2026-12-01T14:00:00.000Z',
      expiresAt: '2026-12-01T14:30:00.000Z',
      status: 'pending',
    },
    link: 'https://desk.example/approvals/c_4f1a',
    locale: 'en',
    ...overrides,
  };
}

/** A payload that must never leave the app unless a channel and the registry both allow it. */
export const SECRET_PAYLOAD = { to: 'customer@example.com', body: 'refund code R-7731-SECRET' };

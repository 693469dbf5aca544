import { ToolRegistry } from 'graded-tools';
import { type ApprovalLinkResult, type ApprovalsConsole, createApprovalsConsole } from 'graded-tools/console';
import { emailNotifier } from 'graded-tools/notify';
import nodemailer from 'nodemailer';
import { describe, expectTypeOf, it } from 'vitest';

declare const approvals: ApprovalsConsole;

describe('approval link types', () => {
  it('takes a user id or a person, and answers a result to switch on', async () => {
    const made = await approvals.createApprovalLink('c-1', { approver: 'li', ttlMs: 60_000 });
    expectTypeOf(made).toEqualTypeOf<ApprovalLinkResult>();
    if (made.ok) expectTypeOf(made.url).toEqualTypeOf<string>();
    else expectTypeOf(made.code).toExtend<string>();
    await approvals.createApprovalLink('c-1', {
      approver: { id: 'li', flags: { outbound: true }, scope: 'desk' },
    });
    // @ts-expect-error the approver is required
    await approvals.createApprovalLink('c-1', { ttlMs: 60_000 });
    // @ts-expect-error ttlMs is milliseconds
    await approvals.createApprovalLink('c-1', { approver: 'li', ttlMs: '10m' });
  });

  it('takes publicUrl on the console, and the console straight into emailNotifier', () => {
    const registry = new ToolRegistry();
    const made = createApprovalsConsole({
      registry,
      authenticate: () => undefined,
      publicUrl: 'https://desk.example/approvals',
    });
    emailNotifier({
      transport: nodemailer.createTransport({ jsonTransport: true }),
      from: 'a@x',
      to: 'b@x',
      approvalLink: (notice, recipient) =>
        made.createApprovalLink(notice.confirmation.id, { approver: recipient, ttlMs: 30 * 60_000 }),
    });
    emailNotifier({
      transport: nodemailer.createTransport({ jsonTransport: true }),
      from: 'a@x',
      to: 'b@x',
      // @ts-expect-error a link is a string or createApprovalLink's result
      approvalLink: () => 42,
    });
  });
});

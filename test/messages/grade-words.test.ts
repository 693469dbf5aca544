import type { ApprovalNotice, Confirmation, ConfirmationToolView } from 'graded-tools';
import { describe, expect, it, vi } from 'vitest';
import { ApproverNotices } from '../../src/confirm/notices/approver-notices.js';
import { stringsFor } from '../../src/console/page/i18n.js';
import { approvalMessage } from '../../src/integrations/slack/message-blocks.js';
import { slackWords } from '../../src/integrations/slack/slack-words.js';
import { type Grade, gradeOf, gradeWords } from '../../src/messages/grade-words.js';
import type { Locale } from '../../src/messages/index.js';
import { emailContent } from '../../src/notify/email-notifier.js';
import { noticeWords } from '../../src/notify/notice-text.js';

// Whether a confirmation sends or changes is worded once (src/messages/grade-words.ts) and judged once
// (`gradeOf`: the record's grade, or its tool's for a write asked before records said so). Before, the
// console and Slack judged by record or tool, but the notices by the record alone: a write without
// `sideEffect` on its record was "A send is waiting" in mail while its console card said "Applies".

const LOCALES: readonly Locale[] = ['en', 'zh-CN'];
const GRADES: readonly Grade[] = ['send', 'write'];

/** A write's record from before records said their grade: no `sideEffect`. */
const OLD_WRITE = {
  id: 'c_9',
  tool: 'crm.update',
  payload: { stage: 'won' },
  digest: 'b'.repeat(64),
  status: 'pending',
  createdAt: '2026-12-01T14:00:00.000Z',
  updatedAt: '2026-12-01T14:00:00.000Z',
  expiresAt: '2026-12-01T14:30:00.000Z',
  history: [{ status: 'pending', at: '2026-12-01T14:00:00.000Z' }],
} as unknown as Confirmation;

const WRITE_TOOL = {
  name: 'crm.update',
  title: 'Update a deal',
  sideEffect: 'write',
  editable: [],
} as unknown as ConfirmationToolView;

describe('send or change, worded once', () => {
  it('every surface takes its send-or-change words from one place, in each language', () => {
    for (const locale of LOCALES)
      for (const grade of GRADES) {
        const words = gradeWords(locale, grade);
        const page = stringsFor(locale, grade);
        expect(page.confirm).toBe(words.confirm);
        expect(page.sendsWith('Refund')).toBe(words.effect('Refund'));
        const slack = slackWords(locale, grade);
        expect([slack.sending, slack.sent]).toEqual([words.doing, words.done]);
        expect(noticeWords(locale, grade).status.delivered).toBe(words.done);
      }
    expect(gradeWords('en', 'write').effect('Update a deal')).toBe('Applies: Update a deal');
    expect(gradeWords('zh-CN', 'send').confirm).toBe('确认发送');
  });

  it('a write whose record does not say so is a change on the console, in Slack and in every notice', async () => {
    expect(gradeOf(OLD_WRITE, WRITE_TOOL)).toBe('write');
    // Slack's card, as the console's card (both judge by `gradeOf`).
    const card = approvalMessage({
      confirmation: OLD_WRITE,
      tool: WRITE_TOOL,
      locale: 'en',
      nameOf: (id) => id,
    });
    expect(JSON.stringify(card.blocks)).toContain('Approve this change?');
    // The notices: the registry's tool says it is a write.
    const got: ApprovalNotice[] = [];
    const notices = new ApproverNotices({
      notifiers: [
        {
          channel: 'capture',
          send: async (notice) => {
            got.push(notice);
            return { ok: true };
          },
        },
      ],
      consoleUrl: undefined,
      includePayload: false,
      locale: 'en',
      onEvent: undefined,
      now: () => Date.parse('2026-12-01T14:00:00.000Z'),
      titleOf: () => 'Update a deal',
      sideEffectOf: () => 'write',
    });
    notices.created(OLD_WRITE);
    await vi.waitFor(() => expect(got).toHaveLength(1));
    const [notice] = got;
    expect(notice?.confirmation.sideEffect).toBe('write');
    const mail = emailContent(notice as ApprovalNotice, { includePayload: false });
    expect(mail.text).toContain('A change is waiting for a person to approve or reject it.');
    expect(mail.text).not.toMatch(/\bsend\b/i);
  });
});

import type { ApprovalNotice, Confirmation, ConfirmationToolView } from 'graded-tools';
import { describe, expect, it } from 'vitest';
import type { Card } from '../../src/console/card-view.js';
import { stringsFor } from '../../src/console/page/i18n.js';
import { quorumLine } from '../../src/console/page/quorum.js';
import { quorumOf } from '../../src/console/quorum.js';
import { approvalMessage } from '../../src/integrations/slack/message-blocks.js';
import type { Locale } from '../../src/messages/index.js';
import { quorumSentence } from '../../src/messages/quorum-words.js';
import { emailContent } from '../../src/notify/email-notifier.js';
import { slackMessage } from '../../src/notify/slack-notifier.js';
import { webhookBody } from '../../src/notify/webhook-notifier.js';
import { notice } from '../notify/support/notices.js';

// The quorum sentence is written once (src/messages/quorum-words.ts): for the same confirmation every
// surface a person decides on says it the same, in each language. Before, the page said "… — Li
// approved", Slack "…. 1 of 2 approvals so far: Li", mail and notices "… — 1 of 2 approved", and the
// page said "Needs 1 approvals from different people" of one plain approval Slack said nothing of.

const DIGEST = 'a'.repeat(64);
const NAMES: Readonly<Record<string, string>> = { 'fin-li': 'Li' };

function record(requires: Confirmation['requires'], approvedBy: readonly string[]): Confirmation {
  return {
    id: 'c_4f1a',
    tool: 'refund.send',
    payload: { orderId: 'o-1', amount: 900 },
    digest: DIGEST,
    status: 'pending',
    actor: 'agent',
    createdAt: '2026-12-01T14:00:00.000Z',
    updatedAt: '2026-12-01T14:01:00.000Z',
    expiresAt: '2026-12-01T14:30:00.000Z',
    history: [{ status: 'pending', at: '2026-12-01T14:00:00.000Z' }],
    ...(requires === undefined ? {} : { requires }),
    approvals: approvedBy.map((by) => ({ by, at: '2026-12-01T14:01:00.000Z', digest: DIGEST })),
  } as unknown as Confirmation;
}

const TOOL = {
  name: 'refund.send',
  title: 'Refund a customer',
  editable: [],
} as unknown as ConfirmationToolView;

/** The page's quorum line, from the card the console's server makes of the record. */
function pageSays(c: Confirmation, locale: Locale): string | undefined {
  const quorum = quorumOf(c);
  const card = { ...c, names: NAMES, ...(quorum === undefined ? {} : { quorum }) } as unknown as Card;
  return quorumLine(card, stringsFor(locale));
}

/** The Slack approval card's text, every block. */
function slackCardSays(c: Confirmation, locale: Locale): string {
  const message = approvalMessage({
    confirmation: c,
    tool: TOOL,
    locale,
    nameOf: (id) => NAMES[id] ?? id,
  });
  return JSON.stringify(message.blocks);
}

/** The notice of the same record, as the registry makes it: `requires` and how many approved. */
function noticeOf(c: Confirmation, locale: Locale): ApprovalNotice {
  const base = notice({ locale, kind: 'reminder', id: 'c_4f1a.reminder' });
  return {
    ...base,
    confirmation: {
      ...base.confirmation,
      ...(c.requires === undefined ? {} : { requires: c.requires, approved: c.approvals?.length ?? 0 }),
    },
  };
}

const FINANCE_TWO = { approvals: 2, approverFlags: ['finance'], rules: ['big-refunds'] };

describe('the quorum sentence, written once, said the same on every surface', () => {
  for (const [locale, said, named] of [
    [
      'en',
      'Needs 2 approvals from finance — 1 of 2 approved',
      'Needs 2 approvals from finance — 1 of 2 approved: Li',
    ],
    [
      'zh-CN',
      '需要 2 位拥有 finance 权限的人批准 — 已有 1/2 人批准',
      '需要 2 位拥有 finance 权限的人批准 — 已有 1/2 人批准：Li',
    ],
  ] as const) {
    it(`${locale}: the console page, Slack's card, mail, Slack notices and webhooks`, () => {
      const c = record(FINANCE_TWO, ['fin-li']);
      expect(quorumSentence(locale, { needed: 2, flags: ['finance'], approved: 1 })).toBe(said);
      expect(quorumSentence(locale, { needed: 2, flags: ['finance'], approved: 1 }, ['Li'])).toBe(named);
      // Where the people's names are known, they follow the same sentence.
      expect(pageSays(c, locale)).toBe(named);
      expect(slackCardSays(c, locale)).toContain(named);
      // Notices know how many approved, not who.
      const n = noticeOf(c, locale);
      expect(emailContent(n, { includePayload: false }).text).toContain(`${said}\n`);
      expect(JSON.stringify(slackMessage(n, false).blocks)).toContain(`*${said}*`);
      expect(JSON.parse(webhookBody(n, false)).requiresText).toBe(said);
    });

    it(`${locale}: one plain approval is said nowhere`, () => {
      const c = record({ approvals: 1, approverFlags: [], rules: ['double-check'] }, []);
      expect(pageSays(c, locale)).toBeUndefined();
      expect(slackCardSays(c, locale)).not.toMatch(/Needs|需要/);
      const n = noticeOf(c, locale);
      expect(emailContent(n, { includePayload: false }).text).not.toMatch(/Needs|需要/);
      expect(JSON.parse(webhookBody(n, false)).requiresText).toBeUndefined();
    });
  }
});

import type { BundleView } from '../../confirm/bundles/bundle-view.js';
import { describeEffect } from '../../confirm/reading/effect-text.js';
import type { ConfirmationToolView } from '../../confirm/types.js';
import { payloadLabels } from '../../console/payload-labels.js';
import type { Locale } from '../../messages/index.js';
import { passkeyRequiredText, requiresPasskey } from '../../messages/passkey-words.js';
import { ACTIONS, buttonValue, OPEN_CONSOLE_ACTION } from './action-value.js';
import { BLOCK_LIMITS, type Block, payloadBlocksOf, plain, type SlackMessage } from './message-blocks.js';
import { cut, escapedWithin, escapeMrkdwn, slackDate, webUrl } from './mrkdwn.js';

/** What a bundle's card is drawn from. */
export interface BundleCardInput {
  readonly bundle: BundleView;
  readonly tool: (name: string) => ConfirmationToolView | undefined;
  readonly locale: Locale;
  readonly nameOf: (id: string) => string;
  /** The bundle's page in the approvals console (its first step's), when there is one. */
  readonly consoleLink?: string | undefined;
}

const WORDS = {
  en: {
    heading: (n: number) => `${n} steps, in order`,
    stepOf: (i: number, n: number, title: string) => `Step ${i} of ${n}: ${title}`,
    approveAll: (n: number) => `Approve all ${n} steps`,
    reject: 'Reject all',
    inOrder: 'One decision for every step; each goes out only after the one before it.',
    tooBig: 'This bundle is too long to show whole here: decide it in the approvals console.',
    openInConsole: 'Open in console',
    askedBy: 'Asked by',
    expires: 'Expires',
    statuses: {
      pending: 'waiting for a decision',
      scheduled: 'approved, goes out in its turn',
      delivering: 'going out now',
      delivered: 'done',
      failed: 'failed',
      unknown: 'outcome unknown',
      rejected: 'rejected',
      expired: 'expired',
      cancelled: 'cancelled',
      stopped: 'stopped',
    } as Record<string, string>,
  },
  'zh-CN': {
    heading: (n: number) => `按顺序共 ${n} 步`,
    stepOf: (i: number, n: number, title: string) => `第 ${i}/${n} 步：${title}`,
    approveAll: (n: number) => `全部批准（共 ${n} 步）`,
    reject: '全部拒绝',
    inOrder: '一次决定覆盖每一步；每一步只在前一步完成后执行。',
    tooBig: '这个捆绑太长，无法在此完整显示：请在审批控制台中决定。',
    openInConsole: '在控制台中打开',
    askedBy: '发起人',
    expires: '过期时间',
    statuses: {
      pending: '等待决定',
      scheduled: '已批准，按顺序执行',
      delivering: '正在执行',
      delivered: '已完成',
      failed: '失败',
      unknown: '结果未知',
      rejected: '已拒绝',
      expired: '已过期',
      cancelled: '已撤销',
      stopped: '已停止',
    } as Record<string, string>,
  },
} as const;

/**
 * A bundle as one Slack card: every step, in order, with its title, effect and payload. "Approve all N
 * steps" is offered only when every step is shown whole within Block Kit's limits; otherwise the card
 * says so and links to the console (Reject stays: no is never dangerous). The buttons carry the first
 * step's id and the bundle digest, so a click decides what the card showed (`confirmBundle`).
 */
export function bundleMessage(input: BundleCardInput): { message: SlackMessage; isWhole: boolean } {
  const { bundle, locale } = input;
  const w = WORDS[locale] ?? WORDS.en;
  const n = bundle.steps.length;
  const blocks: Block[] = [{ type: 'header', text: plain(w.heading(n), BLOCK_LIMITS.header) }];
  const first = bundle.steps[0];
  if (first?.note !== undefined) blocks.push(section(`> ${escapedWithin(first.note, 2900)}`));
  blocks.push(section(escapeMrkdwn(w.inOrder)));
  let isWhole = true;
  for (const [i, step] of bundle.steps.entries()) {
    const tool = input.tool(step.tool);
    const title = tool?.title ?? step.tool;
    const effect = tool?.effect === undefined ? undefined : describeEffect(tool.effect, step.payload);
    // In words, never the raw status: a person reads this card before deciding.
    const status = step.status === 'pending' ? '' : `  ·  _${w.statuses[step.status] ?? step.status}_`;
    blocks.push({ type: 'divider' });
    blocks.push(
      section(
        `*${escapedWithin(w.stepOf(i + 1, n, title), 500)}*${status}${effect ? `\n${escapedWithin(effect, 2000)}` : ''}`,
      ),
    );
    const payload = payloadBlocksOf(step.payload, payloadLabels(tool?.payloadSchema, locale), locale);
    isWhole &&= payload.isWhole;
    blocks.push(...payload.blocks);
  }
  const pending = bundle.steps.find((step) => step.status === 'pending');
  if (first !== undefined)
    blocks.push({
      type: 'context',
      elements: [
        {
          type: 'mrkdwn',
          text: `*${w.askedBy}:* ${escapedWithin(first.actor === undefined ? '—' : input.nameOf(first.actor), 300)}${pending === undefined ? '' : `  ·  *${w.expires}:* ${slackDate(pending.expiresAt)}`}  ·  ${escapedWithin(bundle.id, 200)}`,
        },
      ],
    });
  // One assertion approves the whole bundle, and Slack cannot make one: said instead of Approve.
  const passkey = bundle.steps.some((step) => requiresPasskey(step));
  // Room for the buttons (and the warnings) within Block Kit's 50 blocks.
  isWhole &&= blocks.length + (passkey ? 3 : 2) <= BLOCK_LIMITS.blocks;
  const link = input.consoleLink === undefined ? undefined : webUrl(input.consoleLink);
  if (pending !== undefined && first !== undefined) {
    if (!isWhole) {
      blocks.splice(BLOCK_LIMITS.blocks - (passkey ? 4 : 3));
      blocks.push(section(`:warning: ${escapeMrkdwn(w.tooBig)}`));
    }
    if (passkey) blocks.push(section(`:lock: ${escapeMrkdwn(passkeyRequiredText(locale))}`));
    const elements: Block[] = [];
    if (isWhole && !passkey)
      elements.push({
        type: 'button',
        action_id: ACTIONS.approve,
        text: plain(w.approveAll(n), BLOCK_LIMITS.buttonText),
        style: 'primary',
        value: buttonValue({ id: first.id, digest: bundle.digest }),
      });
    elements.push({
      type: 'button',
      action_id: ACTIONS.reject,
      text: plain(w.reject, BLOCK_LIMITS.buttonText),
      style: 'danger',
      value: buttonValue({ id: pending.id, digest: pending.digest }),
    });
    if ((!isWhole || passkey) && link !== undefined)
      elements.push({
        type: 'button',
        action_id: OPEN_CONSOLE_ACTION,
        text: plain(w.openInConsole, BLOCK_LIMITS.buttonText),
        url: link,
      });
    blocks.push({ type: 'actions', block_id: 'graded_tools_decision', elements });
  }
  const said = w.statuses[bundle.status] ?? bundle.status;
  return { message: { text: cut(`${w.heading(n)} (${said})`, 3000), blocks }, isWhole };
}

function section(text: string): Block {
  return { type: 'section', text: { type: 'mrkdwn', text: cut(text, BLOCK_LIMITS.sectionText) } };
}

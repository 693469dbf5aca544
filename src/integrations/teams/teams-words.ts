import { gradeWords } from '../../messages/grade-words.js';
import type { Locale } from '../../messages/index.js';
import { listText } from '../../messages/quorum-words.js';

/** What the Teams approvals channel says to people, in one language. */
export interface TeamsWords {
  /** The language lists are joined in ("Li and Wu"), and the shared words are said in. */
  readonly lang: Locale;
  readonly approve: string;
  /** A held send's Approve: it goes `hold` after the approval, unless undone. */
  approveHeld(hold: string): string;
  /** Said above a held send's buttons: approving holds it `hold` for an Undo, then it goes. */
  holdLine(hold: string): string;
  readonly reject: string;
  /** The optional reason beside Reject. */
  readonly rejectReason: string;
  readonly undo: string;
  /** The card's refresh action (Teams runs it; rarely shown). */
  readonly refresh: string;
  moreFields(count: number): string;
  readonly openInConsole: string;
  readonly askedBy: string;
  readonly expires: string;
  readonly why: string;
  readonly ref: string;
  readonly links: string;
  readonly unknownActor: string;
  readonly payload: string;
  /** Approve sends this card's payload, exactly: said above the buttons. */
  readonly approveSends: string;
  approvedBy(names: string): string;
  readonly sending: string;
  readonly sent: string;
  /** `time` is an Adaptive Cards `{{TIME(…)}}`, drawn in the reader's own time zone. */
  sendsAt(time: string): string;
  cancelledBy(name: string, reason: string | undefined): string;
  failed(error: string): string;
  unknown(error: string): string;
  rejectedBy(name: string, reason: string | undefined): string;
  markedDelivered(name: string): string;
  readonly expired: string;
  /** To a Teams user who is no mapped approver: names no one. */
  readonly notLinked: string;
  notDone(error: string): string;
  /** On a card that cannot show the whole payload: why there is no Approve, and where to decide. */
  tooLongForTeams(hasConsoleLink: boolean): string;
  /** To a person whose Approve met a card that cannot show the whole payload. */
  notApprovableHere(consoleLink: string | undefined): string;
  /** The card a person acted on was out of date: this one is current, and nothing was decided. */
  readonly staleCard: string;
  readonly bundleHeading: (n: number) => string;
  readonly stepOf: (i: number, n: number, title: string) => string;
  readonly approveAll: (n: number) => string;
  readonly rejectAll: string;
  readonly inOrder: string;
  readonly bundleTooLong: string;
  readonly statuses: Readonly<Record<string, string>>;
}

const en: TeamsWords = {
  lang: 'en',
  approve: 'Approve',
  approveHeld: (hold) => `Approve — sends ${hold} later unless undone`,
  holdLine: (hold) => `Once approved, it waits ${hold} so it can be undone, then it is sent.`,
  reject: 'Reject',
  rejectReason: 'Why reject it? (optional)',
  undo: 'Undo',
  refresh: 'Refresh',
  moreFields: (count) => `…and ${count} more ${count === 1 ? 'field' : 'fields'} not shown here`,
  openInConsole: 'Open in console',
  askedBy: 'Asked by',
  expires: 'Expires',
  why: 'Why',
  ref: 'Reference',
  links: 'Links',
  unknownActor: 'unknown',
  payload: 'What is sent',
  approveSends: 'Approve sends exactly what this card shows.',
  approvedBy: (names) => `Approved by ${names}`,
  sending: gradeWords('en', 'send').doing,
  sent: gradeWords('en', 'send').done,
  sendsAt: (time) => `sends at ${time} unless someone presses Undo`,
  cancelledBy: (name, reason) =>
    reason === undefined
      ? `Cancelled by ${name}; nothing was sent`
      : `Cancelled by ${name}: ${reason}; nothing was sent`,
  failed: (error) => `delivery failed: ${error}`,
  unknown: (error) => `outcome unknown: ${error}`,
  rejectedBy: (name, reason) =>
    reason === undefined ? `Rejected by ${name}` : `Rejected by ${name}: ${reason}`,
  markedDelivered: (name) => `Marked delivered by ${name}`,
  expired: 'Expired: nobody decided in time. It was not sent.',
  notLinked: 'Your Teams account is not linked to an approver of this app, so nothing was decided.',
  notDone: (error) => `Not done: ${error}`,
  tooLongForTeams: (hasConsoleLink) =>
    hasConsoleLink
      ? 'This payload is too long to show whole in Teams, so it cannot be approved here. Open it in the approvals console to read all of it and decide, or reject it here.'
      : 'This payload is too long to show whole in Teams, so it cannot be approved here, and there is no link to the approvals console. Approve it in the console, or reject it here.',
  notApprovableHere: (link) =>
    `Not done: this payload is too long to show whole in Teams, so it cannot be approved here. ${link === undefined ? 'Approve it in the approvals console.' : `Open it in the approvals console: ${link}`}`,
  staleCard: 'This card was out of date, so nothing was decided. This is how it stands now.',
  bundleHeading: (n) => `${n} steps, in order`,
  stepOf: (i, n, title) => `Step ${i} of ${n}: ${title}`,
  approveAll: (n) => `Approve all ${n} steps`,
  rejectAll: 'Reject all',
  inOrder: 'One decision for every step; each goes out only after the one before it.',
  bundleTooLong: 'This bundle is too long to show whole here: decide it in the approvals console.',
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
  },
};

const zhCN: TeamsWords = {
  lang: 'zh-CN',
  approve: '批准',
  approveHeld: (hold) => `批准 — ${hold}后发送，除非撤销`,
  holdLine: (hold) => `批准后会等待 ${hold}，期间可以撤销，然后发送。`,
  reject: '拒绝',
  rejectReason: '拒绝的原因？（可选）',
  undo: '撤销',
  refresh: '刷新',
  moreFields: (count) => `……另有 ${count} 个字段未在此显示`,
  openInConsole: '在控制台中打开',
  askedBy: '发起人',
  expires: '过期时间',
  why: '原因',
  ref: '引用编号',
  links: '链接',
  unknownActor: '未知',
  payload: '发送内容',
  approveSends: '批准将严格按此卡片所示内容发送。',
  approvedBy: (names) => `${names} 已批准`,
  sending: gradeWords('zh-CN', 'send').doing,
  sent: gradeWords('zh-CN', 'send').done,
  sendsAt: (time) => `将于 ${time} 发送，除非有人点击撤销`,
  cancelledBy: (name, reason) =>
    reason === undefined ? `${name} 已撤销，未发送` : `${name} 已撤销：${reason}，未发送`,
  failed: (error) => `发送失败：${error}`,
  unknown: (error) => `结果未知：${error}`,
  rejectedBy: (name, reason) => (reason === undefined ? `${name} 已拒绝` : `${name} 已拒绝：${reason}`),
  markedDelivered: (name) => `${name} 已标记为已送达`,
  expired: '已过期：无人及时决定，未发送。',
  notLinked: '你的 Teams 账号未关联到本应用的审批人，未做任何决定。',
  notDone: (error) => `未执行：${error}`,
  tooLongForTeams: (hasConsoleLink) =>
    hasConsoleLink
      ? '此内容太长，无法在 Teams 中完整显示，因此不能在这里批准。请在审批控制台中打开，读完全部内容后再决定；也可以在这里拒绝。'
      : '此内容太长，无法在 Teams 中完整显示，因此不能在这里批准，而且没有审批控制台的链接。请在控制台中批准，或在这里拒绝。',
  notApprovableHere: (link) =>
    `未完成：此内容太长，无法在 Teams 中完整显示，因此不能在这里批准。${link === undefined ? '请在审批控制台中批准。' : `请在审批控制台中打开：${link}`}`,
  staleCard: '这张卡片已过时，未做任何决定。以下是它现在的状态。',
  bundleHeading: (n) => `按顺序共 ${n} 步`,
  stepOf: (i, n, title) => `第 ${i}/${n} 步：${title}`,
  approveAll: (n) => `全部批准（共 ${n} 步）`,
  rejectAll: '全部拒绝',
  inOrder: '一次决定覆盖每一步；每一步只在前一步完成后执行。',
  bundleTooLong: '这个捆绑太长，无法在此完整显示：请在审批控制台中决定。',
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
  },
};

/** What a write's card says instead: approving applies a change, nothing is sent. */
const enWrite: TeamsWords = {
  ...en,
  approveHeld: (hold) => `Approve — applies ${hold} later unless undone`,
  holdLine: (hold) => `Once approved, it waits ${hold} so it can be undone, then it is applied.`,
  payload: 'What is applied',
  approveSends: 'Approve applies exactly what this card shows.',
  sending: gradeWords('en', 'write').doing,
  sent: gradeWords('en', 'write').done,
  sendsAt: (time) => `applies at ${time} unless someone presses Undo`,
  cancelledBy: (name, reason) =>
    reason === undefined
      ? `Cancelled by ${name}; nothing was changed`
      : `Cancelled by ${name}: ${reason}; nothing was changed`,
  failed: (error) => `applying it failed: ${error}`,
  markedDelivered: (name) => `Marked applied by ${name}`,
  expired: 'Expired: nobody decided in time. Nothing was changed.',
};

const zhCNWrite: TeamsWords = {
  ...zhCN,
  approveHeld: (hold) => `批准 — ${hold}后执行，除非撤销`,
  holdLine: (hold) => `批准后会等待 ${hold}，期间可以撤销，然后执行。`,
  payload: '执行内容',
  approveSends: '批准将严格按此卡片所示内容执行。',
  sending: gradeWords('zh-CN', 'write').doing,
  sent: gradeWords('zh-CN', 'write').done,
  sendsAt: (time) => `将于 ${time} 执行，除非有人点击撤销`,
  cancelledBy: (name, reason) =>
    reason === undefined ? `${name} 已撤销，未做任何更改` : `${name} 已撤销：${reason}，未做任何更改`,
  failed: (error) => `执行失败：${error}`,
  markedDelivered: (name) => `${name} 已标记为已执行`,
  expired: '已过期：无人及时决定，未做任何更改。',
};

/** The words for `locale` (English for anything else); for a write, those of a change applied, never of a send. */
export function teamsWords(locale: Locale, sideEffect?: 'send' | 'write'): TeamsWords {
  if (sideEffect === 'write') return locale === 'zh-CN' ? zhCNWrite : enWrite;
  return locale === 'zh-CN' ? zhCN : en;
}

/** `Li`, `Li and Wu`, `Li, Wu and Ana`, in the words' language. */
export function joinNames(words: TeamsWords, names: readonly string[]): string {
  return listText(words.lang, names);
}

/** A hold in words: "30 s", "5 min", "2 h" ("30 秒" …). */
export function holdText(ms: number, locale: Locale): string {
  const s = Math.round(ms / 1000);
  const zh = locale === 'zh-CN';
  if (s < 120) return zh ? `${s} 秒` : `${s} s`;
  const m = Math.round(s / 60);
  if (m < 120) return zh ? `${m} 分钟` : `${m} min`;
  const h = Math.round(m / 60);
  return zh ? `${h} 小时` : `${h} h`;
}

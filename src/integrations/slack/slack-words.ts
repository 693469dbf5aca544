import { gradeWords } from '../../messages/grade-words.js';
import type { Locale } from '../../messages/index.js';
import { listText } from '../../messages/quorum-words.js';

/** What the Slack approvals channel says to people, in one language. */
export interface SlackWords {
  /** The language lists are joined in ("Li and Wu"), and the shared words are said in. */
  readonly lang: Locale;
  readonly approve: string;
  readonly reject: string;
  readonly edit: string;
  readonly cancel: string;
  /** The button that takes back a held send in its undo window. */
  readonly undo: string;
  /** Slack's own "are you sure?" before Approve sends. */
  readonly approveConfirmTitle: string;
  readonly approveConfirmText: string;
  readonly approveAndSend: string;
  readonly askedBy: string;
  readonly expires: string;
  readonly why: string;
  readonly ref: string;
  readonly unknownActor: string;
  moreFields(count: number): string;
  approvedBy(names: string): string;
  readonly sending: string;
  readonly sent: string;
  /** A held send's undo window: `time` is already mrkdwn. */
  sendsAt(time: string): string;
  cancelledBy(name: string, reason: string | undefined): string;
  failed(error: string): string;
  unknown(error: string): string;
  rejectedBy(name: string, reason: string | undefined): string;
  markedDelivered(name: string): string;
  readonly expired: string;
  readonly notLinked: string;
  notDone(error: string): string;
  reminder(expires: string): string;
  readonly rejectTitle: string;
  readonly rejectReason: string;
  readonly editTitle: string;
  readonly editSubmit: string;
  readonly editIntro: string;
  readonly tooLongToEdit: string;
  /** On a card that cannot show the whole payload: why there is no Approve, and where to decide. */
  tooLongForSlack(hasConsoleLink: boolean): string;
  readonly openInConsole: string;
  /** To a person whose Approve or Edit was refused because the card cannot show the whole payload. */
  notApprovableHere(consoleLink: string | undefined): string;
}

const en: SlackWords = {
  lang: 'en',
  approve: 'Approve',
  reject: 'Reject',
  edit: 'Edit',
  cancel: 'Cancel',
  undo: 'Undo',
  approveConfirmTitle: 'Approve this send?',
  approveConfirmText: 'It is sent as shown once enough people approve.',
  approveAndSend: 'Approve',
  askedBy: 'Asked by',
  expires: 'Expires',
  why: 'Why',
  ref: 'Reference',
  unknownActor: 'unknown',
  moreFields: (count) => `…and ${count} more ${count === 1 ? 'field' : 'fields'}`,
  approvedBy: (names) => `Approved by ${names}`,
  sending: gradeWords('en', 'send').doing,
  sent: gradeWords('en', 'send').done,
  sendsAt: (time) => `sending at ${time} unless someone presses Undo`,
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
  notLinked: 'Your Slack account is not linked to an approver of this app, so nothing was decided.',
  notDone: (error) => `Not done: ${error}`,
  reminder: (expires) => `Reminder: this still waits for approval and expires ${expires}.`,
  rejectTitle: 'Reject this send',
  rejectReason: 'Why reject it?',
  editTitle: 'Edit and approve',
  editSubmit: 'Approve',
  editIntro: 'Change what may be changed; approving sends exactly this once enough people approve.',
  tooLongToEdit:
    'A field is too long to edit in Slack; open the approvals console instead. Nothing was decided.',
  tooLongForSlack: (hasConsoleLink) =>
    hasConsoleLink
      ? 'This payload is too long to show whole in Slack, so it cannot be approved here. Open it in the approvals console to read all of it and decide, or reject it here.'
      : 'This payload is too long to show whole in Slack, so it cannot be approved here, and there is no link to the approvals console. Approve it in the console, or reject it here.',
  openInConsole: 'Open in console',
  notApprovableHere: (link) =>
    `Not done: this payload is too long to show whole in Slack, so it cannot be approved here. ${link === undefined ? 'Approve it in the approvals console.' : `Open it in the approvals console: ${link}`}`,
};

const zhCN: SlackWords = {
  lang: 'zh-CN',
  approve: '批准',
  reject: '拒绝',
  edit: '编辑',
  cancel: '取消',
  undo: '撤销',
  approveConfirmTitle: '批准这项发送？',
  approveConfirmText: '足够多的人批准后，将按所示内容发送。',
  approveAndSend: '批准',
  askedBy: '发起人',
  expires: '过期时间',
  why: '原因',
  ref: '引用编号',
  unknownActor: '未知',
  moreFields: (count) => `……另有 ${count} 个字段`,
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
  notLinked: '你的 Slack 账号未关联到本应用的审批人，未做任何决定。',
  notDone: (error) => `未执行：${error}`,
  reminder: (expires) => `提醒：此项仍在等待审批，将于 ${expires} 过期。`,
  rejectTitle: '拒绝这项发送',
  rejectReason: '拒绝的原因？',
  editTitle: '编辑并批准',
  editSubmit: '批准',
  editIntro: '修改允许修改的内容；足够多的人批准后，将按此内容发送。',
  tooLongToEdit: '有字段太长，无法在 Slack 中编辑；请在审批控制台中处理。未做任何决定。',
  tooLongForSlack: (hasConsoleLink) =>
    hasConsoleLink
      ? '此内容太长，无法在 Slack 中完整显示，因此不能在这里批准。请在审批控制台中打开，读完全部内容后再决定；也可以在这里拒绝。'
      : '此内容太长，无法在 Slack 中完整显示，因此不能在这里批准，而且没有审批控制台的链接。请在控制台中批准，或在这里拒绝。',
  openInConsole: '在控制台中打开',
  notApprovableHere: (link) =>
    `未完成：此内容太长，无法在 Slack 中完整显示，因此不能在这里批准。${link === undefined ? '请在审批控制台中批准。' : `请在审批控制台中打开：${link}`}`,
};

/** What a write's card says instead: approving applies a change, nothing is sent. */
const enWrite: SlackWords = {
  ...en,
  approveConfirmTitle: 'Approve this change?',
  approveConfirmText: 'It is applied as shown once enough people approve.',
  sending: gradeWords('en', 'write').doing,
  sent: gradeWords('en', 'write').done,
  sendsAt: (time) => `applying at ${time} unless someone presses Undo`,
  cancelledBy: (name, reason) =>
    reason === undefined
      ? `Cancelled by ${name}; nothing was changed`
      : `Cancelled by ${name}: ${reason}; nothing was changed`,
  failed: (error) => `applying it failed: ${error}`,
  markedDelivered: (name) => `Marked applied by ${name}`,
  expired: 'Expired: nobody decided in time. Nothing was changed.',
  rejectTitle: 'Reject this change',
  editIntro: 'Change what may be changed; approving applies exactly this once enough people approve.',
};

const zhCNWrite: SlackWords = {
  ...zhCN,
  approveConfirmTitle: '批准这项更改？',
  approveConfirmText: '足够多的人批准后，将按所示内容执行。',
  sending: gradeWords('zh-CN', 'write').doing,
  sent: gradeWords('zh-CN', 'write').done,
  sendsAt: (time) => `将于 ${time} 执行，除非有人点击撤销`,
  cancelledBy: (name, reason) =>
    reason === undefined ? `${name} 已撤销，未做任何更改` : `${name} 已撤销：${reason}，未做任何更改`,
  failed: (error) => `执行失败：${error}`,
  markedDelivered: (name) => `${name} 已标记为已执行`,
  expired: '已过期：无人及时决定，未做任何更改。',
  rejectTitle: '拒绝这项更改',
  editIntro: '修改允许修改的内容；足够多的人批准后，将按此内容执行。',
};

/**
 * The words for `locale`, English for anything else; for a write (`sideEffect: 'write'`) those of a
 * change applied, never of a send.
 */
export function slackWords(locale: Locale, sideEffect?: 'send' | 'write'): SlackWords {
  if (sideEffect === 'write') return locale === 'zh-CN' ? zhCNWrite : enWrite;
  return locale === 'zh-CN' ? zhCN : en;
}

/** `Li`, `Li and Wu`, `Li, Wu and Ana`, in the words' language. */
export function joinNames(words: SlackWords, names: readonly string[]): string {
  return listText(words.lang, names);
}

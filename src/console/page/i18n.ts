// Every word the page shows, in English and Chinese. The server picks the locale (data-locale on #app);
// the registry's own messages come from the server already in that language; the words every surface
// says (send or change) come from src/messages/.
import { gradeWords } from '../../messages/grade-words.js';
import { approvalCount } from '../../messages/quorum-words.js';

export type PageLocale = 'en' | 'zh-CN';

const en = {
  /** The language lists are joined in ("Li and Wu"). */
  lang: 'en',
  appTitle: 'Approvals',
  titleWithCount: (n: string) => `(${n}) Approvals`,
  pendingCount: (n: string) => `${n} pending`,
  signedInAs: (who: string) => `Signed in as ${who}`,
  linkFor: (who: string) => `Approval link for ${who}: it works once`,
  live: 'Live',
  offline: 'Reconnecting…',
  filters: 'Filters',
  status: 'Status',
  tool: 'Tool',
  allStatuses: 'All statuses',
  allTools: 'All tools',
  statuses: {
    pending: 'Pending',
    delivering: 'Delivering',
    delivered: 'Delivered',
    failed: 'Failed',
    rejected: 'Rejected',
    expired: 'Expired',
    unknown: 'Outcome unknown',
    scheduled: 'Sending soon',
    cancelled: 'Cancelled',
  } as Record<string, string>,
  loadMore: 'Load more',
  loading: 'Loading…',
  empty: 'Nothing here: no confirmation matches.',
  selectAll: 'Select all pending',
  select: (title: string) => `Select: ${title}`,
  confirmSelected: 'Confirm selected',
  /** The dialog of "Confirm selected": every selected one, with what confirming it does. */
  bulkListTitle: (n: number) =>
    n === 1 ? 'What confirming the selected one will do:' : `What confirming these ${n} selected will do:`,
  bulkConfirm: (n: number) => (n === 1 ? 'Confirm 1' : `Confirm ${n}`),
  fateSend: 'Sent now.',
  /** `length`: the undo window ("30 seconds"); `at`: when it ends, as near as the page can tell. */
  fateHold: (length: string, at: string) =>
    `Held for ${length} (until about ${at}) so it can be undone, then sent.`,
  fateApproval: (count: number, needed: number) => {
    const left = needed - count;
    return `Not sent yet: your approval makes ${count} of ${needed}; ${left} more ${left === 1 ? 'approval is' : 'approvals are'} needed.`;
  },
  fateLeftOut: (why: string) => `Left out, you cannot confirm it: ${why}`,
  bulkResultTitle: 'What happened to each:',
  cancel: 'Cancel',
  rejectSelected: 'Reject selected',
  selectedCount: (n: number) => `${n} selected`,
  bulkDone: (ok: number, failed: number) => `${ok} done, ${failed} not done: see each card.`,
  confirm: gradeWords('en', 'send').confirm,
  /** Confirm on a send whose rules ask for more people: it records an approval, it sends nothing yet. */
  approve: 'Approve',
  /** The last approval of a send held for its undo window: when it goes out. */
  approveHeld: (at: string) => `Approve — sends at ${at} unless undone`,
  review: 'Review',
  hide: 'Hide',
  whatHappens: 'What will happen',
  sendsWith: (title: string) => gradeWords('en', 'send').effect(title),
  why: 'Why',
  whyFrom: (who: string) => `Why, in ${who}'s words`,
  ref: 'Reference',
  result: 'Result',
  whatWentWrong: (error: string) => `What went wrong: ${error}`,
  technical: 'Technical details',
  toolName: 'Tool',
  confirmationId: 'Confirmation id',
  editedMark: 'edited',
  previewFirst:
    'You changed this send: press Preview edit to see it here, then confirm. Confirm sends only what this card shows.',
  fixEditFirst: 'The edit is not valid yet: fix it and preview it again, or discard it.',
  whyNot: {
    FORBIDDEN: 'You may not confirm this one: another person must.',
    SAME_PERSON: 'You asked for this send yourself: another person must confirm it.',
    FLAG_NOT_GRANTED: 'You may not send this kind of message here: another person must confirm it.',
    SCOPE_MISMATCH: 'This send belongs to another team: a person there must confirm it.',
    UNKNOWN_TOOL: 'This kind of send is no longer set up in the app, so it cannot be confirmed.',
    EXPIRED: 'Past its expiry: it can no longer be confirmed. You can still reject it.',
    PAYLOAD_CHANGED: 'What is stored changed since it was asked for: it cannot be confirmed as it is.',
    ALREADY_APPROVED: 'You approved this already: it waits for another person to approve it.',
    OTHER: 'It cannot be confirmed right now.',
  } as Record<string, string>,
  /** Confirm is not offered: the tool's rules ask approvers for permissions (feature flags) this person lacks. */
  whyNotFlags: (flags: string, n: number) =>
    n === 1
      ? `Approving this needs the ${flags} permission, which you do not have: someone who has it must approve.`
      : `Approving this needs the ${flags} permissions, which you do not have: someone who has them must approve.`,
  approvals: 'Approvals:',
  approvalRecorded: (count: number, needed: number) => {
    const left = Math.max(1, needed - count);
    return `Your approval is recorded (${count} of ${needed}). Nothing is sent until ${left} more ${left === 1 ? 'person approves' : 'people approve'}.`;
  },
  alreadyApproved: 'You already approved this: another person must approve it too. Nothing more was done.',
  notFlags: (flags: string, n: number) =>
    `Not sent: approving this needs the ${flags} ${n === 1 ? 'permission' : 'permissions'}, which you do not have.`,
  limitReached: (at: string) =>
    at === ''
      ? "Not sent: a limit set by the app's rules is reached."
      : `Not sent: a limit set by the app's rules is reached; it resets at ${at}.`,
  reject: 'Reject',
  retry: 'Retry',
  markDelivered: 'Mark delivered',
  reason: 'Reason for rejecting (optional)',
  note: 'Note for marking delivered (optional)',
  askedBy: (who: string) => `Asked by ${who}`,
  askedByNobody: 'Asked by an unnamed caller',
  asked: 'Asked',
  expiresIn: (left: string) => `Expires in ${left}`,
  expiredAgo: 'Past its expiry',
  /** A held send's undo window: "Sending in 0:24 — Undo". */
  sendingIn: (left: string) => `Sending in ${left}`,
  sendingNow: 'Sending now…',
  undo: 'Undo',
  /** What a confirm of a held send did (`at`: the time it goes out). */
  scheduled: (at: string) => `Approved — sending at ${at} unless someone undoes it.`,
  undone: 'Undone: nothing was sent.',
  cancelledBy: (who: string) => `Cancelled by ${who}; nothing was sent`,
  tooLateToUndo: 'Too late to undo: it is already being sent or was sent.',
  alreadyUndone: (who: string) => `Already undone by ${who}: nothing was sent.`,
  open: 'Open details',
  back: 'Back to the inbox',
  working: 'Working…',
  delivered: 'Delivered.',
  rejected: 'Rejected: nothing was sent.',
  markedDelivered: 'Marked as delivered.',
  alreadyDecidedBy: (who: string, status: string) =>
    `Already decided by ${who} (${status}). Nothing was sent again.`,
  decidedBy: (what: string, who: string) => `${what} by ${who}`,
  confirmedBy: 'Approved',
  rejectedBy: 'Rejected',
  markedBy: 'Marked delivered',
  expired: 'Expired: nobody confirmed it in time. Nothing was sent.',
  payloadChanged: 'The payload changed since it was shown: nothing was sent. Review it again.',
  linkPayloadChanged:
    'The payload changed since this link was made: nothing was sent. Review it in the approvals console.',
  samePerson: 'You asked for this send yourself: another person must confirm it. Nothing was sent.',
  forbidden: 'You are not allowed to do this here. Nothing was changed.',
  deliveryFailed: 'Delivery failed: it may not have arrived. See what went wrong below.',
  notDone: {
    INVALID_INPUT: 'Not sent: some fields are not valid.',
    INVALID_OPTION: 'Not sent: this change is not allowed here (only some fields may be edited).',
    EDIT_NOT_PREVIEWED:
      'Not sent: this edit was not previewed as it is. Preview it, check the card, then confirm.',
    FLAG_NOT_GRANTED: 'Not sent: you may not send this kind of message here.',
    SCOPE_MISMATCH: 'Not sent: this send belongs to another team.',
    UNKNOWN_TOOL: 'Not sent: this kind of send is no longer set up in the app.',
    SCHEMA_ERROR: 'Not sent: the app cannot check this edit right now.',
    STORE_FAILED: 'Nothing was decided: the approvals could not be saved. Try again.',
    CONSOLE_FAILED: 'Nothing was decided: the console failed to answer. Try again.',
    UNAUTHENTICATED: 'You are signed out: sign in again, then retry. Nothing was decided.',
    BAD_REQUEST: 'Nothing was decided: the console did not understand the request. Reload the page.',
    CONFIRMATION_NOT_FOUND: 'This send no longer exists.',
    RULE_DENIED: "Not sent: one of the app's rules refuses it.",
  } as Record<string, string>,
  notDoneOther: 'Nothing was decided: something went wrong. Try again, or reload the page.',
  networkError: 'The console could not be reached. Nothing was decided; try again.',
  payload: 'What will be sent',
  canonicalJson: 'Exact canonical JSON',
  digest: 'Digest (SHA-256 of what is confirmed)',
  history: 'History',
  edit: 'Edit before confirming',
  editHint:
    'Only these fields may be changed. Preview shows the edit on the card; Confirm sends only what the card shows.',
  editRestartsApprovals:
    'Others approved this send as it is now: confirming an edit records your approval of the edited send, and the others must approve again.',
  preview: 'Preview edit',
  discard: 'Discard edit',
  previewDigest: (digest: string) => `Edited digest: ${digest}`,
  changedFields: (fields: string) => `Changed: ${fields}. The card above now shows the edit.`,
  previewFailed: 'This edit cannot be sent:',
  noChange: 'Nothing changed yet.',
  invalidJson: (field: string) => `${field}: not valid JSON`,
  notFound: 'There is no confirmation with that id.',
  attempt: (n: number) => `Attempt ${n}`,
  edited: (fields: string) => `edited: ${fields}`,
  openConsole: 'Open the approvals console',
  h: {
    asked: (who: string) => `${who} asked for it`,
    askedNobody: 'Asked for',
    approved: (who: string) => `${who} approved`,
    approvedEdited: (who: string, fields: string) => `${who} approved, after editing ${fields}`,
    /** An approval of several (a rule asks for more people): the words above, and how many of how many. */
    ofNeeded: (words: string, count: number, needed: number) =>
      `${words} (${approvalCount('en', count, needed)})`,
    retried: (who: string) => `${who} retried`,
    delivering: 'Being delivered',
    delivered: 'Delivered',
    markedDelivered: (who: string) => `${who} marked it delivered`,
    failed: 'Delivery failed',
    unknown: 'No answer from the delivery: whether it arrived is unknown',
    rejected: (who: string) => `Rejected by ${who}`,
    rejectedNobody: 'Rejected',
    expired: 'Expired: nobody decided in time; nothing was sent',
    scheduled: (who: string, at: string) => `${who} approved; held until ${at} so it can be undone`,
    cancelled: (who: string) => `Cancelled by ${who}; nothing was sent`,
    cancelledNobody: 'Cancelled; nothing was sent',
  },
};

export type Strings = typeof en;

const zhCN: Strings = {
  lang: 'zh-CN',
  appTitle: '待审批',
  titleWithCount: (n) => `(${n}) 待审批`,
  pendingCount: (n) => `${n} 项待确认`,
  signedInAs: (who) => `当前用户：${who}`,
  linkFor: (who) => `${who} 的审批链接：仅可使用一次`,
  live: '实时',
  offline: '正在重新连接…',
  filters: '筛选',
  status: '状态',
  tool: '工具',
  allStatuses: '全部状态',
  allTools: '全部工具',
  statuses: {
    pending: '待确认',
    delivering: '发送中',
    delivered: '已送达',
    failed: '发送失败',
    rejected: '已拒绝',
    expired: '已过期',
    unknown: '结果未知',
    scheduled: '即将发送',
    cancelled: '已撤销',
  },
  loadMore: '加载更多',
  loading: '加载中…',
  empty: '这里没有符合条件的待审批项。',
  selectAll: '全选待确认项',
  select: (title) => `选择：${title}`,
  confirmSelected: '确认所选',
  bulkListTitle: (n) => (n === 1 ? '确认所选的这一项将会：' : `确认所选的这 ${n} 项将会：`),
  bulkConfirm: (n) => `确认 ${n} 项`,
  fateSend: '立即发送。',
  fateHold: (length, at) => `先保留 ${length}（约到 ${at}），此前可撤销，之后发送。`,
  fateApproval: (count, needed) =>
    `暂不发送：加上你的批准为 ${count}/${needed}，还需 ${needed - count} 人批准。`,
  fateLeftOut: (why) => `不包括在内，你不能确认它：${why}`,
  bulkResultTitle: '每一项的结果：',
  cancel: '取消',
  rejectSelected: '拒绝所选',
  selectedCount: (n) => `已选 ${n} 项`,
  bulkDone: (ok, failed) => `${ok} 项已完成，${failed} 项未完成：请看各卡片。`,
  confirm: gradeWords('zh-CN', 'send').confirm,
  approve: '批准',
  approveHeld: (at) => `批准 — 将于 ${at} 发送，除非被撤销`,
  review: '查看',
  hide: '收起',
  whatHappens: '确认后将会',
  sendsWith: (title) => gradeWords('zh-CN', 'send').effect(title),
  why: '原因',
  whyFrom: (who) => `原因（${who} 所写）`,
  ref: '参考编号',
  result: '结果',
  whatWentWrong: (error) => `出错原因：${error}`,
  technical: '技术细节',
  toolName: '工具',
  confirmationId: '确认编号',
  editedMark: '已修改',
  previewFirst: '你修改了此项发送：请先点击“预览修改”在此查看，再确认。确认只会发送卡片上显示的内容。',
  fixEditFirst: '修改尚不合规：请改正后重新预览，或放弃修改。',
  whyNot: {
    FORBIDDEN: '你不能确认此项：需由其他人确认。',
    SAME_PERSON: '这是你自己发起的发送：必须由另一个人确认。',
    FLAG_NOT_GRANTED: '你在此处无权发送此类消息：需由其他人确认。',
    SCOPE_MISMATCH: '此发送属于其他团队：需由该团队的人确认。',
    UNKNOWN_TOOL: '应用中已不再提供此类发送，无法确认。',
    EXPIRED: '已超过有效期：不能再确认，但仍可拒绝。',
    PAYLOAD_CHANGED: '存储的内容在发起后已被更改：无法按现状确认。',
    ALREADY_APPROVED: '你已批准过此项：正在等待其他人批准。',
    OTHER: '此项暂时无法确认。',
  },
  whyNotFlags: (flags) => `批准此项需要 ${flags} 权限，而你没有：需由拥有该权限的人批准。`,
  approvals: '批准进度：',
  approvalRecorded: (count, needed) =>
    `你的批准已记录（${count}/${needed}）。还需 ${Math.max(1, needed - count)} 人批准后才会发送。`,
  alreadyApproved: '你已批准过此项：还需其他人批准。没有做其他操作。',
  notFlags: (flags) => `未发送：批准此项需要 ${flags} 权限，而你没有。`,
  limitReached: (at) =>
    at === '' ? '未发送：已达到应用规则设定的限额。' : `未发送：已达到应用规则设定的限额，将于 ${at} 重置。`,
  reject: '拒绝',
  retry: '重试',
  markDelivered: '标记为已送达',
  reason: '拒绝理由（可选）',
  note: '标记送达的备注（可选）',
  askedBy: (who) => `发起人：${who}`,
  askedByNobody: '发起人：未署名',
  asked: '发起于',
  expiresIn: (left) => `${left} 后过期`,
  expiredAgo: '已超过有效期',
  sendingIn: (left) => `${left} 后发送`,
  sendingNow: '正在发送…',
  undo: '撤销',
  scheduled: (at) => `已批准 — 将于 ${at} 发送，除非有人撤销。`,
  undone: '已撤销：没有发送任何内容。',
  cancelledBy: (who) => `${who} 已撤销，没有发送任何内容`,
  tooLateToUndo: '来不及撤销：已在发送或已发送。',
  alreadyUndone: (who) => `已由 ${who} 撤销：没有发送任何内容。`,
  open: '查看详情',
  back: '返回收件箱',
  working: '处理中…',
  delivered: '已送达。',
  rejected: '已拒绝：没有发送任何内容。',
  markedDelivered: '已标记为已送达。',
  alreadyDecidedBy: (who, status) => `已由 ${who} 处理（${status}），不会再次发送。`,
  decidedBy: (what, who) => `${who} ${what}`,
  confirmedBy: '已批准',
  rejectedBy: '已拒绝',
  markedBy: '已标记为已送达',
  expired: '已过期：无人及时确认，没有发送任何内容。',
  payloadChanged: '内容在展示后已被更改：没有发送任何内容，请重新查看。',
  linkPayloadChanged: '生成此链接后内容已被更改：没有发送任何内容。请在审批控制台中重新查看。',
  samePerson: '这是你自己发起的发送：必须由另一个人确认。没有发送任何内容。',
  forbidden: '你无权在此执行该操作。没有做任何更改。',
  deliveryFailed: '发送失败：可能没有送达。出错原因见下方。',
  notDone: {
    INVALID_INPUT: '未发送：有字段不合规。',
    INVALID_OPTION: '未发送：此处不允许这样修改（只能修改部分字段）。',
    EDIT_NOT_PREVIEWED: '未发送：此修改未按当前内容预览。请先预览，核对卡片后再确认。',
    FLAG_NOT_GRANTED: '未发送：你在此处无权发送此类消息。',
    SCOPE_MISMATCH: '未发送：此发送属于其他团队。',
    UNKNOWN_TOOL: '未发送：应用中已不再提供此类发送。',
    SCHEMA_ERROR: '未发送：应用暂时无法检查此修改。',
    STORE_FAILED: '没有做出任何决定：无法保存审批记录。请重试。',
    CONSOLE_FAILED: '没有做出任何决定：控制台未能响应。请重试。',
    UNAUTHENTICATED: '你已退出登录：请重新登录后重试。没有做出任何决定。',
    BAD_REQUEST: '没有做出任何决定：控制台无法理解该请求。请重新加载页面。',
    CONFIRMATION_NOT_FOUND: '此发送已不存在。',
    RULE_DENIED: '未发送：应用的一条规则拒绝了它。',
  },
  notDoneOther: '没有做出任何决定：出现了问题。请重试或重新加载页面。',
  networkError: '无法连接到控制台。没有做出任何决定，请重试。',
  payload: '将要发送的内容',
  canonicalJson: '精确的规范 JSON',
  digest: '摘要（所确认内容的 SHA-256）',
  history: '历史记录',
  edit: '确认前修改',
  editHint: '只能修改这些字段。预览会在卡片上显示修改；确认只发送卡片上显示的内容。',
  editRestartsApprovals: '其他人已批准当前内容：确认修改后将记录你对修改后内容的批准，其他人需要重新批准。',
  preview: '预览修改',
  discard: '放弃修改',
  previewDigest: (digest) => `修改后的摘要：${digest}`,
  changedFields: (fields) => `已修改：${fields}。上方卡片已显示修改后的内容。`,
  previewFailed: '此修改无法发送：',
  noChange: '尚未修改。',
  invalidJson: (field) => `${field}：不是有效的 JSON`,
  notFound: '没有该编号的待审批项。',
  attempt: (n) => `第 ${n} 次尝试`,
  edited: (fields) => `修改了：${fields}`,
  openConsole: '打开审批控制台',
  h: {
    asked: (who) => `${who} 发起了请求`,
    askedNobody: '已发起请求',
    approved: (who) => `${who} 已批准`,
    approvedEdited: (who, fields) => `${who} 修改了 ${fields} 后批准`,
    ofNeeded: (words, count, needed) => `${words}（${approvalCount('zh-CN', count, needed)}）`,
    retried: (who) => `${who} 已重试`,
    delivering: '正在发送',
    delivered: '已送达',
    markedDelivered: (who) => `${who} 标记为已送达`,
    failed: '发送失败',
    unknown: '发送无回应：不确定是否送达',
    rejected: (who) => `${who} 已拒绝`,
    rejectedNobody: '已拒绝',
    expired: '已过期：无人及时处理，没有发送任何内容',
    scheduled: (who, at) => `${who} 已批准；将于 ${at} 发送，此前可撤销`,
    cancelled: (who) => `${who} 已撤销，没有发送任何内容`,
    cancelledNobody: '已撤销，没有发送任何内容',
  },
};

/** The words that differ on a write's card: confirming it applies a change, nothing is sent. */
type WriteWords = Partial<Omit<Strings, 'statuses' | 'whyNot' | 'notDone' | 'h'>> & {
  readonly statuses: Record<string, string>;
  readonly whyNot: Record<string, string>;
  readonly notDone: Record<string, string>;
  readonly h: Partial<Strings['h']>;
};

const enWrite: WriteWords = {
  statuses: { delivering: 'Applying', delivered: 'Applied', scheduled: 'Applying soon' },
  fateSend: 'Applied now.',
  fateHold: (length, at) => `Held for ${length} (until about ${at}) so it can be undone, then applied.`,
  fateApproval: (count, needed) => {
    const left = needed - count;
    return `Not applied yet: your approval makes ${count} of ${needed}; ${left} more ${left === 1 ? 'approval is' : 'approvals are'} needed.`;
  },
  confirm: gradeWords('en', 'write').confirm,
  sendsWith: (title) => gradeWords('en', 'write').effect(title),
  previewFirst:
    'You changed this request: press Preview edit to see it here, then confirm. Confirm applies only what this card shows.',
  whyNot: {
    SAME_PERSON: 'You asked for this change yourself: another person must confirm it.',
    FLAG_NOT_GRANTED: 'You may not make this kind of change here: another person must confirm it.',
    SCOPE_MISMATCH: 'This change belongs to another team: a person there must confirm it.',
    UNKNOWN_TOOL: 'This kind of change is no longer set up in the app, so it cannot be confirmed.',
  },
  approvalRecorded: (count, needed) => {
    const left = Math.max(1, needed - count);
    return `Your approval is recorded (${count} of ${needed}). Nothing is applied until ${left} more ${left === 1 ? 'person approves' : 'people approve'}.`;
  },
  notFlags: (flags, n) =>
    `Not applied: approving this needs the ${flags} ${n === 1 ? 'permission' : 'permissions'}, which you do not have.`,
  limitReached: (at) =>
    at === ''
      ? "Not applied: a limit set by the app's rules is reached."
      : `Not applied: a limit set by the app's rules is reached; it resets at ${at}.`,
  markDelivered: 'Mark applied',
  note: 'Note for marking applied (optional)',
  sendingIn: (left) => `Applying in ${left}`,
  sendingNow: 'Applying now…',
  scheduled: (at) => `Approved — applying at ${at} unless someone undoes it.`,
  undone: 'Undone: nothing was changed.',
  cancelledBy: (who) => `Cancelled by ${who}; nothing was changed`,
  tooLateToUndo: 'Too late to undo: it is already being applied or was applied.',
  alreadyUndone: (who) => `Already undone by ${who}: nothing was changed.`,
  delivered: 'Applied.',
  rejected: 'Rejected: nothing was changed.',
  markedDelivered: 'Marked as applied.',
  alreadyDecidedBy: (who, status) => `Already decided by ${who} (${status}). Nothing was applied again.`,
  markedBy: 'Marked applied',
  expired: 'Expired: nobody confirmed it in time. Nothing was changed.',
  payloadChanged: 'The request changed since it was shown: nothing was changed. Review it again.',
  linkPayloadChanged:
    'The request changed since this link was made: nothing was changed. Review it in the approvals console.',
  samePerson: 'You asked for this change yourself: another person must confirm it. Nothing was changed.',
  deliveryFailed: 'Applying it failed: it may not have taken effect. See what went wrong below.',
  notDone: {
    INVALID_INPUT: 'Not applied: some fields are not valid.',
    INVALID_OPTION: 'Not applied: this change is not allowed here (only some fields may be edited).',
    EDIT_NOT_PREVIEWED:
      'Not applied: this edit was not previewed as it is. Preview it, check the card, then confirm.',
    FLAG_NOT_GRANTED: 'Not applied: you may not make this kind of change here.',
    SCOPE_MISMATCH: 'Not applied: this change belongs to another team.',
    UNKNOWN_TOOL: 'Not applied: this kind of change is no longer set up in the app.',
    SCHEMA_ERROR: 'Not applied: the app cannot check this edit right now.',
    CONFIRMATION_NOT_FOUND: 'This request no longer exists.',
    RULE_DENIED: "Not applied: one of the app's rules refuses it.",
  },
  payload: 'The change asked for',
  editHint:
    'Only these fields may be changed. Preview shows the edit on the card; Confirm applies only what the card shows.',
  editRestartsApprovals:
    'Others approved this change as it is now: confirming an edit records your approval of the edited change, and the others must approve again.',
  previewFailed: 'This edit cannot be applied:',
  h: {
    delivering: 'Being applied',
    delivered: 'Applied',
    markedDelivered: (who) => `${who} marked it applied`,
    failed: 'Applying it failed',
    unknown: 'No answer from the tool: whether it was applied is unknown',
    expired: 'Expired: nobody decided in time; nothing was changed',
    cancelled: (who) => `Cancelled by ${who}; nothing was changed`,
    cancelledNobody: 'Cancelled; nothing was changed',
  },
};

const zhCNWrite: WriteWords = {
  statuses: { delivering: '执行中', delivered: '已执行', failed: '执行失败', scheduled: '即将执行' },
  fateSend: '立即执行。',
  fateHold: (length, at) => `先保留 ${length}（约到 ${at}），此前可撤销，之后执行。`,
  fateApproval: (count, needed) =>
    `暂不执行：加上你的批准为 ${count}/${needed}，还需 ${needed - count} 人批准。`,
  confirm: gradeWords('zh-CN', 'write').confirm,
  sendsWith: (title) => gradeWords('zh-CN', 'write').effect(title),
  previewFirst: '你修改了此项请求：请先点击“预览修改”在此查看，再确认。确认只会执行卡片上显示的内容。',
  whyNot: {
    SAME_PERSON: '这是你自己发起的更改：必须由另一个人确认。',
    FLAG_NOT_GRANTED: '你在此处无权进行此类更改：需由其他人确认。',
    SCOPE_MISMATCH: '此更改属于其他团队：需由该团队的人确认。',
    UNKNOWN_TOOL: '应用中已不再提供此类更改，无法确认。',
  },
  approvalRecorded: (count, needed) =>
    `你的批准已记录（${count}/${needed}）。还需 ${Math.max(1, needed - count)} 人批准后才会执行。`,
  notFlags: (flags) => `未执行：批准此项需要 ${flags} 权限，而你没有。`,
  limitReached: (at) =>
    at === '' ? '未执行：已达到应用规则设定的限额。' : `未执行：已达到应用规则设定的限额，将于 ${at} 重置。`,
  markDelivered: '标记为已执行',
  note: '标记执行的备注（可选）',
  sendingIn: (left) => `${left} 后执行`,
  sendingNow: '正在执行…',
  scheduled: (at) => `已批准 — 将于 ${at} 执行，除非有人撤销。`,
  undone: '已撤销：未做任何更改。',
  cancelledBy: (who) => `${who} 已撤销，未做任何更改`,
  tooLateToUndo: '来不及撤销：已在执行或已执行。',
  alreadyUndone: (who) => `已由 ${who} 撤销：未做任何更改。`,
  delivered: '已执行。',
  rejected: '已拒绝：未做任何更改。',
  markedDelivered: '已标记为已执行。',
  alreadyDecidedBy: (who, status) => `已由 ${who} 处理（${status}），不会再次执行。`,
  markedBy: '已标记为已执行',
  expired: '已过期：无人及时确认，未做任何更改。',
  payloadChanged: '请求在展示后已被更改：未做任何更改，请重新查看。',
  linkPayloadChanged: '生成此链接后请求已被更改：未做任何更改。请在审批控制台中重新查看。',
  samePerson: '这是你自己发起的更改：必须由另一个人确认。未做任何更改。',
  deliveryFailed: '执行失败：可能没有生效。出错原因见下方。',
  notDone: {
    INVALID_INPUT: '未执行：有字段不合规。',
    INVALID_OPTION: '未执行：此处不允许这样修改（只能修改部分字段）。',
    EDIT_NOT_PREVIEWED: '未执行：此修改未按当前内容预览。请先预览，核对卡片后再确认。',
    FLAG_NOT_GRANTED: '未执行：你在此处无权进行此类更改。',
    SCOPE_MISMATCH: '未执行：此更改属于其他团队。',
    UNKNOWN_TOOL: '未执行：应用中已不再提供此类更改。',
    SCHEMA_ERROR: '未执行：应用暂时无法检查此修改。',
    CONFIRMATION_NOT_FOUND: '此请求已不存在。',
    RULE_DENIED: '未执行：应用的一条规则拒绝了它。',
  },
  payload: '请求执行的更改',
  editHint: '只能修改这些字段。预览会在卡片上显示修改；确认只执行卡片上显示的内容。',
  editRestartsApprovals: '其他人已批准当前更改：确认修改后将记录你对修改后内容的批准，其他人需要重新批准。',
  previewFailed: '此修改无法执行：',
  h: {
    delivering: '正在执行',
    delivered: '已执行',
    markedDelivered: (who) => `${who} 标记为已执行`,
    failed: '执行失败',
    unknown: '执行无回应：不确定是否已生效',
    expired: '已过期：无人及时处理，未做任何更改',
    scheduled: (who, at) => `${who} 已批准；将于 ${at} 执行，此前可撤销`,
    cancelled: (who) => `${who} 已撤销，未做任何更改`,
    cancelledNobody: '已撤销，未做任何更改',
  },
};

/** The send words with a write's laid over them, nested groups merged key by key. */
function withWriteWords(base: Strings, write: WriteWords): Strings {
  return {
    ...base,
    ...write,
    statuses: { ...base.statuses, ...write.statuses },
    whyNot: { ...base.whyNot, ...write.whyNot },
    notDone: { ...base.notDone, ...write.notDone },
    h: { ...base.h, ...write.h },
  };
}

const enForWrites = withWriteWords(en, enWrite);
const zhCNForWrites = withWriteWords(zhCN, zhCNWrite);

/**
 * The strings of `locale` ('zh-CN', or English for anything else); for a write (`sideEffect: 'write'`)
 * the words of a change applied, never of a send.
 */
export function stringsFor(locale: string, sideEffect?: 'send' | 'write'): Strings {
  const write = sideEffect === 'write';
  if (locale === 'zh-CN') return write ? zhCNForWrites : zhCN;
  return write ? enForWrites : en;
}

/** The strings for one card: its grade's words, in the language `t` is in. */
export function stringsForCard(t: Strings, card: { readonly sideEffect?: 'send' | 'write' }): Strings {
  return card.sideEffect === 'write' ? stringsFor(t.lang, 'write') : t;
}

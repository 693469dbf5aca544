import type { ConfirmationStatus } from '../confirmation.js';
import type { Locale } from '../messages/index.js';

/** The console's own refusal codes (the registry's codes keep the registry's words). */
export type ConsoleCode =
  | 'UNAUTHENTICATED'
  | 'FORBIDDEN'
  | 'FORBIDDEN_ORIGIN'
  | 'FORBIDDEN_HOST'
  | 'TOO_MANY_STREAMS'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'PAYLOAD_TOO_LARGE'
  | 'BAD_REQUEST'
  | 'EDIT_NOT_PREVIEWED'
  | 'NOT_FOUND'
  | 'METHOD_NOT_ALLOWED'
  | 'CONSOLE_CLOSED'
  | 'CONSOLE_FAILED';

/** Words of the console that are not a code: page titles, the sign-in page, what a decision did. */
interface ConsoleWords {
  readonly codes: Readonly<Record<ConsoleCode, string>>;
  readonly title: string;
  readonly signInTitle: string;
  readonly signIn: string;
  /** A confirm, retry or reject that went through, by the status it left the confirmation in. */
  readonly done: Readonly<Record<ConfirmationStatus, string>>;
  /** A person settled an unknown or failed one as delivered. */
  readonly markedDelivered: string;
  /** `done` and `markedDelivered` for a write: a change applied, nothing sent. */
  readonly write: {
    readonly done: Readonly<Record<ConfirmationStatus, string>>;
    readonly markedDelivered: string;
  };
  /** After a gate's refusal of an approval link: where the approver's flags and scope go. */
  readonly linkGates: string;
}

const en: ConsoleWords = {
  codes: {
    UNAUTHENTICATED: 'You are not signed in. Sign in to see the approvals.',
    FORBIDDEN: 'You may not do this with this confirmation.',
    FORBIDDEN_ORIGIN: 'This request did not come from the approvals console itself, so it was refused.',
    FORBIDDEN_HOST: 'This request names a host the approvals console does not answer to, so it was refused.',
    TOO_MANY_STREAMS:
      'Too many live-update connections are open for you. Close another console tab and reload.',
    UNSUPPORTED_MEDIA_TYPE: 'The console accepts only JSON (Content-Type: application/json).',
    PAYLOAD_TOO_LARGE: 'The request is too large (at most 256 KB).',
    BAD_REQUEST: 'The request is not what the console expects.',
    EDIT_NOT_PREVIEWED:
      'This edit was not previewed as it is, so it was not sent: preview it, check what the card shows, then confirm.',
    NOT_FOUND: 'There is nothing here.',
    METHOD_NOT_ALLOWED: 'This address does not accept that method.',
    CONSOLE_CLOSED: 'The approvals console is shutting down.',
    CONSOLE_FAILED: 'The approvals console failed to answer. Nothing was decided; try again.',
  },
  title: 'Approvals',
  signInTitle: 'Sign in required',
  signIn: 'You must sign in to see the approvals.',
  done: {
    pending: 'It is pending.',
    delivering: 'Confirmed; it is being delivered.',
    delivered: 'Delivered.',
    failed: 'Delivery failed.',
    rejected: 'Rejected; nothing was sent.',
    expired: 'It has expired; nothing was sent.',
    unknown: 'Confirmed, but whether it arrived is unknown.',
    scheduled: 'Approved; it will be sent when the undo window ends, unless someone cancels it.',
    cancelled: 'Cancelled before it was sent; nothing was sent.',
  },
  markedDelivered: 'Marked as delivered; it will not be sent again.',
  write: {
    done: {
      pending: 'It is pending.',
      delivering: 'Confirmed; it is being applied.',
      delivered: 'Applied.',
      failed: 'Applying it failed.',
      rejected: 'Rejected; nothing was changed.',
      expired: 'It has expired; nothing was changed.',
      unknown: 'Confirmed, but whether it was applied is unknown.',
      scheduled: 'Approved; it will be applied when the undo window ends, unless someone cancels it.',
      cancelled: 'Cancelled before it was applied; nothing was changed.',
    },
    markedDelivered: 'Marked as applied; it will not be applied again.',
  },
  linkGates: "Give the approver's flags and scope in `approver`: { id, flags, scope }.",
};

const zhCN: ConsoleWords = {
  codes: {
    UNAUTHENTICATED: '您尚未登录。请登录后查看待审批内容。',
    FORBIDDEN: '您无权对该确认请求执行此操作。',
    FORBIDDEN_ORIGIN: '该请求并非来自审批控制台本身，已被拒绝。',
    FORBIDDEN_HOST: '该请求指向的主机名不属于审批控制台，已被拒绝。',
    TOO_MANY_STREAMS: '您打开的实时更新连接过多。请关闭其他控制台标签页后重新加载。',
    UNSUPPORTED_MEDIA_TYPE: '控制台只接受 JSON（Content-Type: application/json）。',
    PAYLOAD_TOO_LARGE: '请求过大（最多 256 KB）。',
    BAD_REQUEST: '请求内容不符合控制台的要求。',
    EDIT_NOT_PREVIEWED: '此修改未按当前内容预览，因此没有发送：请先预览，核对卡片显示的内容后再确认。',
    NOT_FOUND: '此处没有内容。',
    METHOD_NOT_ALLOWED: '此地址不接受该请求方法。',
    CONSOLE_CLOSED: '审批控制台正在关闭。',
    CONSOLE_FAILED: '审批控制台未能响应。未做出任何决定，请重试。',
  },
  title: '待审批',
  signInTitle: '需要登录',
  signIn: '您必须登录才能查看待审批内容。',
  done: {
    pending: '仍在等待确认。',
    delivering: '已确认，正在投递。',
    delivered: '已送达。',
    failed: '投递失败。',
    rejected: '已拒绝，未发送任何内容。',
    expired: '已过期，未发送任何内容。',
    unknown: '已确认，但是否送达未知。',
    scheduled: '已批准；撤销时间结束后发送，除非有人取消。',
    cancelled: '已在发送前取消，未发送任何内容。',
  },
  markedDelivered: '已标记为已送达，不会再次发送。',
  write: {
    done: {
      pending: '仍在等待确认。',
      delivering: '已确认，正在执行。',
      delivered: '已执行。',
      failed: '执行失败。',
      rejected: '已拒绝，未做任何更改。',
      expired: '已过期，未做任何更改。',
      unknown: '已确认，但是否已执行未知。',
      scheduled: '已批准；撤销时间结束后执行，除非有人取消。',
      cancelled: '已在执行前取消，未做任何更改。',
    },
    markedDelivered: '已标记为已执行，不会再次执行。',
  },
  linkGates: '请在 `approver` 中给出审批人的 flags 和 scope：{ id, flags, scope }。',
};

const words: Readonly<Record<Locale, ConsoleWords>> = { en, 'zh-CN': zhCN };

/** The console's words in `locale`. */
export function consoleWords(locale: Locale): ConsoleWords {
  return words[locale] ?? en;
}

/** The message for one of the console's own codes. */
export function consoleMessage(code: ConsoleCode, locale: Locale): string {
  return consoleWords(locale).codes[code];
}

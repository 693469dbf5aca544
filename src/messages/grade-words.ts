import type { Locale } from './catalog.js';

/** What deciding on a confirmation does: sends something out (`send`), or applies a change (`write`). */
export type Grade = 'send' | 'write';

/**
 * A confirmation's grade as every surface words it: its record's, or its tool's for a write asked
 * before records said so (a record without `sideEffect` is a send only when its tool is not a write).
 */
export function gradeOf(
  confirmation: { readonly sideEffect?: Grade | undefined },
  tool: { readonly sideEffect?: string | undefined } | undefined,
): Grade {
  return confirmation.sideEffect === 'write' || tool?.sideEffect === 'write' ? 'write' : 'send';
}

/** The words that say a send from a change, as every surface says them, in one language. */
export interface GradeWords {
  /** What is decided on: "send" / "change" (发送 / 更改). */
  readonly noun: string;
  /** What confirming does when the tool says no `effect`: "Sends: Refund a customer" / "Applies: …". */
  effect(title: string): string;
  /** The deciding button that completes it: "Confirm and send" / "Confirm and apply". */
  readonly confirm: string;
  /** While it goes out: "sending…" / "applying…". */
  readonly doing: string;
  /** Once done: "sent" / "applied" (已发送 / 已执行). */
  readonly done: string;
  /** What did not happen, after a reject, an undo or an expiry: "nothing was sent" / "nothing was changed". */
  readonly nothingDone: string;
  /**
   * A held send's undo window while it runs, after who approved it: "sending at 14:05 unless someone
   * presses Undo" (`at` is already in the surface's format: a page's clock, Slack's date token).
   */
  held(at: string): string;
  /** Who took it back in its undo window, and why when they said: "Cancelled by Wu; nothing was sent". */
  cancelledBy(who: string, reason?: string): string;
  /** Nobody decided before it expired: "Expired: nobody decided in time; nothing was sent". */
  readonly expired: string;
}

const WORDS: Readonly<Record<Locale, Readonly<Record<Grade, GradeWords>>>> = {
  en: {
    send: {
      noun: 'send',
      effect: (title) => `Sends: ${title}`,
      confirm: 'Confirm and send',
      doing: 'sending…',
      done: 'sent',
      nothingDone: 'nothing was sent',
      held: (at) => `sending at ${at} unless someone presses Undo`,
      cancelledBy: (who, reason) =>
        reason === undefined
          ? `Cancelled by ${who}; nothing was sent`
          : `Cancelled by ${who}: ${reason}; nothing was sent`,
      expired: 'Expired: nobody decided in time; nothing was sent',
    },
    write: {
      noun: 'change',
      effect: (title) => `Applies: ${title}`,
      confirm: 'Confirm and apply',
      doing: 'applying…',
      done: 'applied',
      nothingDone: 'nothing was changed',
      held: (at) => `applying at ${at} unless someone presses Undo`,
      cancelledBy: (who, reason) =>
        reason === undefined
          ? `Cancelled by ${who}; nothing was changed`
          : `Cancelled by ${who}: ${reason}; nothing was changed`,
      expired: 'Expired: nobody decided in time; nothing was changed',
    },
  },
  'zh-CN': {
    send: {
      noun: '发送',
      effect: (title) => `发送：${title}`,
      confirm: '确认发送',
      doing: '发送中……',
      done: '已发送',
      nothingDone: '没有发送任何内容',
      held: (at) => `将于 ${at} 发送，除非有人点击撤销`,
      cancelledBy: (who, reason) =>
        reason === undefined
          ? `${who} 已撤销，没有发送任何内容`
          : `${who} 已撤销：${reason}，没有发送任何内容`,
      expired: '已过期：无人及时决定，没有发送任何内容',
    },
    write: {
      noun: '更改',
      effect: (title) => `执行：${title}`,
      confirm: '确认执行',
      doing: '执行中……',
      done: '已执行',
      nothingDone: '未做任何更改',
      held: (at) => `将于 ${at} 执行，除非有人点击撤销`,
      cancelledBy: (who, reason) =>
        reason === undefined ? `${who} 已撤销，未做任何更改` : `${who} 已撤销：${reason}，未做任何更改`,
      expired: '已过期：无人及时决定，未做任何更改',
    },
  },
};

/** The send-or-change words of `grade` in `locale` (English for anything else). */
export function gradeWords(locale: Locale | undefined, grade: Grade): GradeWords {
  return WORDS[locale === 'zh-CN' ? 'zh-CN' : 'en'][grade];
}

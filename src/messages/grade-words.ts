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
}

const WORDS: Readonly<Record<Locale, Readonly<Record<Grade, GradeWords>>>> = {
  en: {
    send: {
      noun: 'send',
      effect: (title) => `Sends: ${title}`,
      confirm: 'Confirm and send',
      doing: 'sending…',
      done: 'sent',
    },
    write: {
      noun: 'change',
      effect: (title) => `Applies: ${title}`,
      confirm: 'Confirm and apply',
      doing: 'applying…',
      done: 'applied',
    },
  },
  'zh-CN': {
    send: {
      noun: '发送',
      effect: (title) => `发送：${title}`,
      confirm: '确认发送',
      doing: '发送中……',
      done: '已发送',
    },
    write: {
      noun: '更改',
      effect: (title) => `执行：${title}`,
      confirm: '确认执行',
      doing: '执行中……',
      done: '已执行',
    },
  },
};

/** The send-or-change words of `grade` in `locale` (English for anything else). */
export function gradeWords(locale: Locale | undefined, grade: Grade): GradeWords {
  return WORDS[locale === 'zh-CN' ? 'zh-CN' : 'en'][grade];
}

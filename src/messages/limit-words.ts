import type { Locale } from './catalog.js';

/** What the words read of a limit's state (`registry.check`'s `LimitState` has these and more). */
export interface LimitState {
  readonly rule: string;
  readonly per: 'minute' | 'hour' | 'day';
  readonly by: string;
  readonly byValue?: string | number | boolean;
  readonly max: number;
  readonly used: number;
  readonly amount: number;
  readonly shadow: boolean;
}

/**
 * Where each of a pending call's limits stands, in the approver's words: "Limit refund-cap: 150 of
 * 500 today for cus-42 (this one included)". The call was counted when it was asked, so `used`
 * already holds it. Shadow limits are left out: they never refuse.
 */
export function limitLines(states: readonly LimitState[], locale: Locale): string[] {
  return states.filter((state) => !state.shadow).map((state) => limitLine(state, locale));
}

function limitLine(state: LimitState, locale: Locale): string {
  const zh = locale === 'zh-CN';
  const period = (zh ? ZH_PERIOD : EN_PERIOD)[state.per];
  const whose = whoseCount(state, zh);
  if (zh)
    return `限额“${state.rule}”：${period}${whose}已用 ${state.used}/${state.max}（含这一笔 ${state.amount}）`;
  return `Limit ${state.rule}: ${state.used} of ${state.max} ${period}${whose} (this one's ${state.amount} included)`;
}

const EN_PERIOD = { minute: 'this minute', hour: 'this hour', day: 'today' } as const;
const ZH_PERIOD = { minute: '本分钟', hour: '本小时', day: '今天' } as const;

function whoseCount(state: LimitState, zh: boolean): string {
  if (state.byValue !== undefined)
    return zh ? `（${String(state.byValue)}）` : ` for ${String(state.byValue)}`;
  switch (state.by) {
    case 'actor':
      return zh ? '（此请求者）' : ' for this asker';
    case 'scope':
      return zh ? '（此范围）' : ' in this scope';
    default:
      return '';
  }
}

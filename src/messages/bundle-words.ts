import type { Locale } from './catalog.js';

/**
 * What a bundle's rejection did, in the person's words, for every surface (the console's answer and
 * card, Slack): which steps it stopped and which had already gone out. Steps are counted from 0, as
 * `rejectBundle` answers them, and said from 1.
 */
export function bundleRejectedText(
  outcome: { readonly stopped?: readonly number[]; readonly gone?: readonly number[] },
  locale: Locale,
): string {
  const stopped = (outcome.stopped ?? []).map((i) => i + 1);
  const gone = (outcome.gone ?? []).map((i) => i + 1);
  if (locale === 'zh-CN') {
    const list = (steps: readonly number[]) => `第 ${steps.join('、')} 步`;
    const said = stopped.length === 0 ? '已拒绝：没有可停止的步骤。' : `已拒绝：${list(stopped)}不会执行。`;
    return gone.length === 0 ? said : `${said}${list(gone)}已经执行（或正在执行），拒绝无法撤回。`;
  }
  const list = (steps: readonly number[]) => {
    const last = steps.at(-1);
    if (steps.length === 1) return `step ${last}`;
    return `steps ${steps.slice(0, -1).join(', ')} and ${last}`;
  };
  const said =
    stopped.length === 0
      ? 'Rejected: no step was left to stop.'
      : `Rejected: ${list(stopped)} will not go out.`;
  if (gone.length === 0) return said;
  const them = gone.length === 1 ? 'it' : 'them';
  const had = list(gone);
  return `${said} ${had.charAt(0).toUpperCase()}${had.slice(1)} had already gone out (or started to): rejecting could not stop ${them}.`;
}

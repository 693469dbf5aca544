import type { Confirmation, ConfirmationHistoryEntry } from '../../confirmation.js';
import type { Locale } from '../../messages/index.js';
import type { BundleView } from '../bundles/bundle-view.js';

/** The step that moved a confirmation to its current status (the last one), if it is recorded. */
function lastStep(c: Confirmation): ConfirmationHistoryEntry | undefined {
  const last = c.history.at(-1);
  return last?.status === c.status ? last : undefined;
}

/** A reject's reason as one clause: trimmed, without the full stop the sentence around it adds. */
function reasonOf(note: string | undefined): string | undefined {
  const reason = note
    ?.trim()
    .replace(/[.。]+$/u, '')
    .trim();
  return reason === undefined || reason === '' ? undefined : reason;
}

/** The fields a person changed before it went out, from the claim's recorded edit. */
function editedFields(c: Confirmation): readonly string[] {
  for (const entry of c.history) if (entry.edit !== undefined) return entry.edit.fields;
  return [];
}

/**
 * How many people approved a send that went past its claim: the claim is the approval that completed
 * the quorum, so exactly as many as its rules asked for (one without rules).
 */
function approverCount(c: Confirmation): number {
  const needed = c.requires?.approvals;
  return needed === undefined || !Number.isInteger(needed) || needed < 1 ? 1 : needed;
}

/** `n`: how many people approved. The model hears how many, never who (ids stay with the app). */
interface Words {
  readonly delivered: (at: string, edited: readonly string[], n: number) => string;
  readonly rejected: (reason: string | undefined) => string;
  readonly expired: (at: string) => string;
  readonly failed: (error: string | undefined, n: number) => string;
  readonly unknown: (error: string | undefined, n: number) => string;
  readonly pending: (until: string) => string;
  readonly delivering: (n: number) => string;
  readonly scheduled: (at: string, n: number) => string;
  readonly cancelled: (reason: string | undefined, n: number) => string;
}

/** Who approved, in English: "a person" ("A person" to start a sentence), or "2 people". */
const enApprovers = (n: number, atStart = false) =>
  n === 1 ? (atStart ? 'A person' : 'a person') : `${n} people`;
const zhApprovers = (n: number) => (n === 1 ? '有人' : `${n} 人`);

/** What the model is told about a send: whether it went out. */
const SEND_WORDS: Readonly<Record<Locale, Words>> = {
  en: {
    delivered: (at, edited, n) =>
      `Sent at ${at}: ${enApprovers(n)} approved it.` +
      (edited.length === 0
        ? ''
        : ` They edited ${edited.join(', ')} before sending; what went out is the edited version.`),
    rejected: (reason) =>
      reason === undefined
        ? 'A person rejected this; it was not sent. They gave no reason.'
        : `A person rejected this: ${reason}. It was not sent.`,
    expired: (at) => `Nobody decided in time: it expired at ${at} and was not sent.`,
    failed: (error, n) =>
      `${enApprovers(n, true)} approved this, but delivery failed${error === undefined ? '' : ` (${error})`}. A person may retry it; do not ask again for the same send.`,
    unknown: (error, n) =>
      `${enApprovers(n, true)} approved this, but whether it was sent is unknown${error === undefined ? '' : ` (${error})`}. A person will check; do not send it again.`,
    pending: (until) => `It is waiting for a person to decide (until ${until}). Nothing has been sent yet.`,
    delivering: (n) => `${enApprovers(n, true)} approved this and it is being sent now.`,
    scheduled: (at, n) =>
      `${enApprovers(n, true)} approved this; it will be sent at ${at} unless someone cancels it first. Nothing has been sent yet.`,
    cancelled: (reason, n) =>
      `A person cancelled this after ${n === 1 ? 'it was approved' : `${n} people approved it`}${reason === undefined ? '' : `: ${reason}`}. It was not sent.`,
  },
  'zh-CN': {
    delivered: (at, edited, n) =>
      `已于 ${at} 发送：${zhApprovers(n)}批准了它。` +
      (edited.length === 0 ? '' : `对方在发送前修改了 ${edited.join('、')}，发出的是修改后的版本。`),
    rejected: (reason) =>
      reason === undefined
        ? '有人拒绝了此请求，未发送，对方没有给出原因。'
        : `有人拒绝了此请求：${reason}。未发送。`,
    expired: (at) => `无人及时决定：已于 ${at} 过期，未发送。`,
    failed: (error, n) =>
      `${zhApprovers(n)}批准了此请求，但投递失败${error === undefined ? '' : `（${error}）`}。可由人重试；请勿再次提出相同的发送。`,
    unknown: (error, n) =>
      `${zhApprovers(n)}批准了此请求，但不确定是否已发送${error === undefined ? '' : `（${error}）`}。将由人核实；请勿再次发送。`,
    pending: (until) => `正在等待有人决定（截至 ${until}）。尚未发送任何内容。`,
    delivering: (n) => `${zhApprovers(n)}批准了此请求，正在发送。`,
    scheduled: (at, n) =>
      `${zhApprovers(n)}批准了此请求，将于 ${at} 发送，除非在此之前有人撤销。尚未发送任何内容。`,
    cancelled: (reason, n) =>
      `有人在${n === 1 ? '' : ` ${n} 人`}批准后撤销了此请求${reason === undefined ? '' : `：${reason}`}。未发送。`,
  },
};

/** What the model is told about a write: a change applied or not, never a send. */
const WRITE_WORDS: Readonly<Record<Locale, Words>> = {
  en: {
    delivered: (at, edited, n) =>
      `Applied at ${at}: ${enApprovers(n)} approved it.` +
      (edited.length === 0
        ? ''
        : ` They edited ${edited.join(', ')} before applying it; what was applied is the edited version.`),
    rejected: (reason) =>
      reason === undefined
        ? 'A person rejected this; nothing was changed. They gave no reason.'
        : `A person rejected this: ${reason}. Nothing was changed.`,
    expired: (at) => `Nobody decided in time: it expired at ${at} and nothing was changed.`,
    failed: (error, n) =>
      `${enApprovers(n, true)} approved this, but applying it failed${error === undefined ? '' : ` (${error})`}. A person may retry it; do not ask again for the same change.`,
    unknown: (error, n) =>
      `${enApprovers(n, true)} approved this, but whether it was applied is unknown${error === undefined ? '' : ` (${error})`}. A person will check; do not ask for it again.`,
    pending: (until) =>
      `It is waiting for a person to decide (until ${until}). Nothing has been changed yet.`,
    delivering: (n) => `${enApprovers(n, true)} approved this and it is being applied now.`,
    scheduled: (at, n) =>
      `${enApprovers(n, true)} approved this; it will be applied at ${at} unless someone cancels it first. Nothing has been changed yet.`,
    cancelled: (reason, n) =>
      `A person cancelled this after ${n === 1 ? 'it was approved' : `${n} people approved it`}${reason === undefined ? '' : `: ${reason}`}. Nothing was changed.`,
  },
  'zh-CN': {
    delivered: (at, edited, n) =>
      `已于 ${at} 执行：${zhApprovers(n)}批准了它。` +
      (edited.length === 0 ? '' : `对方在执行前修改了 ${edited.join('、')}，执行的是修改后的版本。`),
    rejected: (reason) =>
      reason === undefined
        ? '有人拒绝了此请求，未做任何更改，对方没有给出原因。'
        : `有人拒绝了此请求：${reason}。未做任何更改。`,
    expired: (at) => `无人及时决定：已于 ${at} 过期，未做任何更改。`,
    failed: (error, n) =>
      `${zhApprovers(n)}批准了此请求，但执行失败${error === undefined ? '' : `（${error}）`}。可由人重试；请勿再次提出相同的更改。`,
    unknown: (error, n) =>
      `${zhApprovers(n)}批准了此请求，但不确定是否已执行${error === undefined ? '' : `（${error}）`}。将由人核实；请勿再次提出。`,
    pending: (until) => `正在等待有人决定（截至 ${until}）。尚未做任何更改。`,
    delivering: (n) => `${zhApprovers(n)}批准了此请求，正在执行。`,
    scheduled: (at, n) =>
      `${zhApprovers(n)}批准了此请求，将于 ${at} 执行，除非在此之前有人撤销。尚未做任何更改。`,
    cancelled: (reason, n) =>
      `有人在${n === 1 ? '' : ` ${n} 人`}批准后撤销了此请求${reason === undefined ? '' : `：${reason}`}。未做任何更改。`,
  },
};

/**
 * The words to hand back to the model about a confirmation it asked for — or, given a bundle
 * (`waitFor(bundleId)`'s `bundle`), about each of its steps, one line each — what a person decided, in
 * the model's terms, without the payload — a send as sent or not, a write as applied or not. The reason a person gave for rejecting is passed on, so the
 * agent can do better next turn. It says what happened, not who: "a person", or "2 people" where several
 * approved; the ids of approvers and cancellers stay in the confirmation's history for the app.
 *
 * @example
 * ```ts
 * import { describeDecision, ToolRegistry } from 'graded-tools';
 *
 * const registry = new ToolRegistry().register({
 *   name: 'message.send',
 *   description: 'Email the customer.',
 *   sideEffect: 'send',
 *   inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
 *   prepare: (input: { text: string }) => ({ text: input.text }),
 *   deliver: () => ({ sent: true }),
 * });
 * const asked = await registry.propose('message.send', { text: 'Hi' }, { actor: 'agent:desk-bot' });
 * if (asked.ok) {
 *   await registry.reject(asked.confirmationId, { rejectedBy: 'li', reason: 'wrong customer' });
 *   const decided = await registry.confirmations.waitFor(asked.confirmationId);
 *   if (decided.ok) describeDecision(decided.confirmation); // 'A person rejected this: wrong customer. It was not sent.'
 * }
 * ```
 */
export function describeDecision(decided: Confirmation | BundleView, locale: Locale = 'en'): string {
  if ('steps' in decided && Array.isArray(decided.steps)) return describeBundle(decided, locale);
  return describeOne(decided as Confirmation, locale);
}

/**
 * A bundle (`waitFor(bundleId)`'s `bundle`), one line per step, in order: "Step 2 of 2 (email.send):
 * …". A step stopped because one before it did not go out says so, not that a person rejected it.
 */
function describeBundle(bundle: BundleView, locale: Locale): string {
  const size = bundle.steps.length;
  return bundle.steps
    .map((step, i) => {
      const stopped = stoppedBy(step);
      const what =
        stopped === undefined
          ? describeOne(step, locale)
          : locale === 'zh-CN'
            ? `未发出：第 ${stopped} 步没有完成，此步随之停止。`
            : `Not sent: step ${stopped} did not go out, so this step was stopped.`;
      return locale === 'zh-CN'
        ? `第 ${i + 1}/${size} 步（${step.tool}）：${what}`
        : `Step ${i + 1} of ${size} (${step.tool}): ${what}`;
    })
    .join('\n');
}

/** The step (from 1) whose end stopped this one, when a bundle stopped it (the system's own note). */
function stoppedBy(step: Confirmation): number | undefined {
  const last = lastStep(step);
  if (last === undefined || last.by !== undefined) return undefined;
  const match = /^stopped: step (\d+) /u.exec(last.note ?? '');
  return match === null ? undefined : Number(match[1]);
}

function describeOne(confirmation: Confirmation, locale: Locale): string {
  const byLocale = confirmation.sideEffect === 'write' ? WRITE_WORDS : SEND_WORDS;
  const words = byLocale[locale] ?? byLocale.en;
  const step = lastStep(confirmation);
  const at = step?.at ?? confirmation.updatedAt;
  const n = approverCount(confirmation);
  switch (confirmation.status) {
    case 'delivered':
      return words.delivered(at, editedFields(confirmation), n);
    case 'rejected':
      return words.rejected(reasonOf(step?.note));
    case 'expired':
      return words.expired(confirmation.expiresAt);
    case 'failed':
      return words.failed(confirmation.error, n);
    case 'unknown':
      return words.unknown(confirmation.error, n);
    case 'delivering':
      return words.delivering(n);
    case 'scheduled':
      return words.scheduled(confirmation.deliverAt ?? at, n);
    case 'cancelled':
      return words.cancelled(reasonOf(step?.note), n);
    default:
      return words.pending(confirmation.expiresAt);
  }
}

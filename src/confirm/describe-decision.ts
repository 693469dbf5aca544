import type { Locale } from '../messages/index.js';
import type { Confirmation, ConfirmationHistoryEntry } from './types.js';

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

interface Words {
  readonly delivered: (at: string, edited: readonly string[]) => string;
  readonly rejected: (reason: string | undefined) => string;
  readonly expired: (at: string) => string;
  readonly failed: (error: string | undefined) => string;
  readonly unknown: (error: string | undefined) => string;
  readonly pending: (until: string) => string;
  readonly delivering: () => string;
  readonly scheduled: (at: string) => string;
  readonly cancelled: (by: string | undefined, reason: string | undefined) => string;
}

const WORDS: Readonly<Record<Locale, Words>> = {
  en: {
    delivered: (at, edited) =>
      `Sent at ${at}: a person approved it.` +
      (edited.length === 0
        ? ''
        : ` They edited ${edited.join(', ')} before sending; what went out is the edited version.`),
    rejected: (reason) =>
      reason === undefined
        ? 'A person rejected this; it was not sent. They gave no reason.'
        : `A person rejected this: ${reason}. It was not sent.`,
    expired: (at) => `Nobody decided in time: it expired at ${at} and was not sent.`,
    failed: (error) =>
      `A person approved this, but delivery failed${error === undefined ? '' : ` (${error})`}. A person may retry it; do not ask again for the same send.`,
    unknown: (error) =>
      `A person approved this, but whether it was sent is unknown${error === undefined ? '' : ` (${error})`}. A person will check; do not send it again.`,
    pending: (until) => `It is waiting for a person to decide (until ${until}). Nothing has been sent yet.`,
    delivering: () => 'A person approved this and it is being sent now.',
    scheduled: (at) =>
      `A person approved this; it will be sent at ${at} unless someone cancels it first. Nothing has been sent yet.`,
    cancelled: (by, reason) =>
      `${by === undefined ? 'A person' : by} cancelled this after it was approved${reason === undefined ? '' : `: ${reason}`}. It was not sent.`,
  },
  'zh-CN': {
    delivered: (at, edited) =>
      `已于 ${at} 发送：有人批准了它。` +
      (edited.length === 0 ? '' : `对方在发送前修改了 ${edited.join('、')}，发出的是修改后的版本。`),
    rejected: (reason) =>
      reason === undefined
        ? '有人拒绝了此请求，未发送，对方没有给出原因。'
        : `有人拒绝了此请求：${reason}。未发送。`,
    expired: (at) => `无人及时决定：已于 ${at} 过期，未发送。`,
    failed: (error) =>
      `有人批准了此请求，但投递失败${error === undefined ? '' : `（${error}）`}。可由人重试；请勿再次提出相同的发送。`,
    unknown: (error) =>
      `有人批准了此请求，但不确定是否已发送${error === undefined ? '' : `（${error}）`}。将由人核实；请勿再次发送。`,
    pending: (until) => `正在等待有人决定（截至 ${until}）。尚未发送任何内容。`,
    delivering: () => '有人批准了此请求，正在发送。',
    scheduled: (at) => `有人批准了此请求，将于 ${at} 发送，除非在此之前有人撤销。尚未发送任何内容。`,
    cancelled: (by, reason) =>
      `${by ?? '有人'}在批准后撤销了此请求${reason === undefined ? '' : `：${reason}`}。未发送。`,
  },
};

/**
 * The words to hand back to the model about a confirmation it asked for: what a person decided, in
 * the model's terms, without the payload. The reason a person gave for rejecting is passed on, so the
 * agent can do better next turn.
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
export function describeDecision(confirmation: Confirmation, locale: Locale = 'en'): string {
  const words = WORDS[locale] ?? WORDS.en;
  const step = lastStep(confirmation);
  const at = step?.at ?? confirmation.updatedAt;
  switch (confirmation.status) {
    case 'delivered':
      return words.delivered(at, editedFields(confirmation));
    case 'rejected':
      return words.rejected(reasonOf(step?.note));
    case 'expired':
      return words.expired(confirmation.expiresAt);
    case 'failed':
      return words.failed(confirmation.error);
    case 'unknown':
      return words.unknown(confirmation.error);
    case 'delivering':
      return words.delivering();
    case 'scheduled':
      return words.scheduled(confirmation.deliverAt ?? at);
    case 'cancelled':
      return words.cancelled(step?.by, reasonOf(step?.note));
    default:
      return words.pending(confirmation.expiresAt);
  }
}

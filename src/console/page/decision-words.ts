// A decision in the approver's words: who decided, what happened, why a button did nothing — never a
// code, never words meant for a model.

import { passkeyWords } from '../../messages/passkey-words.js';
import type { Card, Decision, Offer } from './api.js';
import type { Strings } from './i18n.js';
import { issueText } from './issue-text.js';
import { approverNames, listOf } from './quorum.js';

export type Action = 'confirm' | 'reject' | 'retry' | 'markDelivered' | 'cancel';

/** The app's name for `id` on this card, or the id. */
export function nameOn(card: Pick<Card, 'names'> | undefined, id: string): string {
  return card !== undefined && Object.hasOwn(card.names, id) ? (card.names[id] ?? id) : id;
}

/**
 * Who decided, as the history says: the approver's claim (with everyone who approved it, when the
 * tool's rules asked for several people; a held send's claim is its `scheduled` step), a rejection, a
 * held send taken back, or a manual "delivered".
 */
export function decider(
  card: Card,
  lang = 'en',
): { what: 'confirmed' | 'rejected' | 'marked' | 'cancelled'; who: string; note?: string } | undefined {
  for (let i = card.history.length - 1; i >= 0; i--) {
    const entry = card.history[i];
    if (entry?.by === undefined) continue;
    const note = entry.note === undefined ? {} : { note: entry.note };
    const who = nameOn(card, entry.by);
    if (entry.status === 'delivering' || entry.status === 'scheduled') {
      const all = card.quorum?.approvedBy.includes(entry.by) ? approverNames(card) : [];
      return { what: 'confirmed', who: all.length > 1 ? listOf(all, lang) : who };
    }
    if (entry.status === 'rejected') return { what: 'rejected', who, ...note };
    if (entry.status === 'cancelled') return { what: 'cancelled', who, ...note };
    if (entry.status === 'delivered') return { what: 'marked', who, ...note };
  }
  return undefined;
}

/**
 * Why Confirm is not offered (`offer.whyNot`), in the person's words: which permissions they lack
 * for the rules' approver flags, or the check list's reason. `undefined` when it is offered.
 */
export function whyNotText(offer: Offer, t: Strings): string | undefined {
  const { whyNot: code, missingFlags = [] } = offer;
  if (code === undefined) return undefined;
  if (code === 'PASSKEY_REQUIRED') return passkeyWords(t.lang).required;
  return code === 'FLAG_NOT_GRANTED' && missingFlags.length > 0
    ? t.whyNotFlags(listOf(missingFlags, t.lang), missingFlags.length)
    : (t.whyNot[code] ?? t.whyNot.OTHER ?? '');
}

/**
 * Not a refusal but what the person's decision did, though nothing is sent yet: their approval was
 * recorded and the tool's rules ask for more people, or the send is approved and held for its undo
 * window. Said as what happened, not as an error.
 */
export function isTaken(decision: Decision): boolean {
  return !decision.ok && (decision.code === 'AWAITING_APPROVALS' || decision.code === 'SCHEDULED');
}

/** A decision in the person's words: never a code, never words meant for a model. */
export function describeDecision(decision: Decision, action: Action, t: Strings, oneUse = false): string {
  if (decision.ok) {
    if (decision.status === 'rejected') return t.rejected;
    if (decision.status === 'cancelled') return t.undone;
    if (action === 'markDelivered') return t.markedDelivered;
    if (decision.status === 'delivered') return t.delivered;
    return decision.message;
  }
  const card = decision.confirmation;
  const status = card?.status;
  switch (decision.code) {
    case 'AWAITING_APPROVALS': {
      const count = decision.approval?.count ?? card?.quorum?.approvedBy.length ?? 1;
      return t.approvalRecorded(count, decision.approval?.needed ?? card?.quorum?.needed ?? count + 1);
    }
    case 'SCHEDULED': {
      const at = decision.deliverAt ?? card?.deliverAt;
      return t.scheduled(at === undefined ? '' : formatClock(at, t.lang));
    }
    case 'ALREADY_APPROVED':
      return t.alreadyApproved;
    case 'FLAG_NOT_GRANTED': {
      const missing = decision.missingFlags ?? [];
      if (missing.length === 0) return t.notDone.FLAG_NOT_GRANTED ?? t.notDoneOther;
      return t.notFlags(listOf(missing, t.lang), missing.length);
    }
    case 'LIMIT_REACHED':
      return t.limitReached(decision.resetsAt === undefined ? '' : formatTime(decision.resetsAt, t.lang));
    case 'ALREADY_DECIDED': {
      if (action === 'cancel' && status === 'cancelled') {
        const who = card && decider(card, t.lang)?.who;
        return t.alreadyUndone(who ?? '?');
      }
      if (action === 'cancel') return t.tooLateToUndo;
      const who = decision.decidedBy ? nameOn(card, decision.decidedBy) : card && decider(card, t.lang)?.who;
      return t.alreadyDecidedBy(who ?? '?', t.statuses[status ?? ''] ?? status ?? '');
    }
    case 'EXPIRED':
      return t.expired;
    case 'PAYLOAD_CHANGED':
      return oneUse ? t.linkPayloadChanged : t.payloadChanged;
    case 'LINK_REFUSED':
      // The server's words already say why (used, expired, not for this confirmation).
      return decision.error;
    case 'SAME_PERSON':
      return t.samePerson;
    case 'FORBIDDEN':
      return t.forbidden;
    case 'DELIVERY_FAILED':
      return t.deliveryFailed;
    case 'NETWORK':
      return t.networkError;
    // The browser's prompt was cancelled or is not there: nothing reached the server.
    case 'PASSKEY_CANCELLED':
    case 'PASSKEY_EXISTS':
      return passkeyWords(t.lang).cancelled;
    case 'PASSKEY_UNSUPPORTED':
      return passkeyWords(t.lang).unsupported;
    // The server's words say why (no passkey registered, a refused assertion).
    case 'PASSKEY_REQUIRED':
    case 'PASSKEY_INVALID':
      return decision.error;
    default: {
      const words =
        t.notDone[decision.code] ?? (/^HTTP_/.test(decision.code) ? t.networkError : t.notDoneOther);
      const issues = (decision.issues ?? []).map((issue) => issueText(issue, card?.labels));
      return [words, ...issues].join('\n');
    }
  }
}

/** A time later today (a held send's): "14:05"; with its date when it is another day. */
export function formatClock(iso: string, locale: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const today = date.toDateString() === new Date().toDateString();
  return today
    ? new Intl.DateTimeFormat(locale, { timeStyle: 'short' }).format(date)
    : formatTime(iso, locale);
}

export function formatTime(iso: string, locale: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(date);
}

/** Who decided, in words: "Approved by Li", "Cancelled by Wu: wrong customer". */
export function decidedText(who: NonNullable<ReturnType<typeof decider>>, t: Strings): string {
  const what =
    who.what === 'cancelled'
      ? t.cancelledBy(who.who)
      : t.decidedBy(
          who.what === 'confirmed' ? t.confirmedBy : who.what === 'rejected' ? t.rejectedBy : t.markedBy,
          who.who,
        );
  return what + (who.note ? `: ${who.note}` : '');
}

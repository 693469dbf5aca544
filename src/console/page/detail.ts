// One confirmation's page: its card, open (the same buttons as in the inbox, its technical details),
// for a pending one with editable fields the edit form, and the history in words.
import type { Api, Card, HistoryEntry } from './api.js';
import { type CardView, createCardView } from './card.js';
import { syncClock } from './countdown.js';
import { formatClock, nameOn } from './decision-words.js';
import { el, present } from './dom.js';
import { createEditForm, type EditForm } from './edit-form.js';
import { type Strings, stringsForCard } from './i18n.js';

export interface DetailOptions {
  readonly api: Api;
  readonly t: Strings;
  readonly base: string;
  readonly locale: string;
  /** On an approval link's page: told who the link is for; no way back to the inbox, no edits. */
  readonly link?: (person: { id: string; name?: string }) => void;
}

/**
 * One history entry in words: "Li approved", "Li approved (1 of 2)", "Li approved; held until 14:05 so
 * it can be undone", "Delivered", "Rejected by Li: reason", "Cancelled by Li; nothing was sent".
 */
export function historyWords(entry: HistoryEntry, index: number, card: Card, t: Strings): string {
  const who = entry.by === undefined ? undefined : nameOn(card, entry.by);
  const labelled = (fields: readonly string[]) =>
    fields.map((f) => (Object.hasOwn(card.labels, f) ? (card.labels[f] ?? f) : f)).join(', ');
  const withNote = (words: string) => (entry.note === undefined ? words : `${words}: ${entry.note}`);
  switch (entry.status) {
    case 'pending': {
      // One approval of several: it stays pending, and the entry says how many of how many.
      if (entry.approval !== undefined && who !== undefined) {
        const words =
          entry.edit === undefined ? t.h.approved(who) : t.h.approvedEdited(who, labelled(entry.edit.fields));
        return t.h.ofNeeded(words, entry.approval.count, entry.approval.needed);
      }
      const asker = card.actor === undefined ? undefined : nameOn(card, card.actor);
      return asker === undefined ? t.h.askedNobody : t.h.asked(asker);
    }
    case 'delivering': {
      if (who === undefined) return t.h.delivering;
      const retried = card.history
        .slice(0, index)
        .some((e) => e.status === 'failed' || e.status === 'unknown');
      if (retried) return t.h.retried(who);
      return entry.edit === undefined
        ? t.h.approved(who)
        : t.h.approvedEdited(who, labelled(entry.edit.fields));
    }
    case 'delivered':
      return who === undefined ? t.h.delivered : withNote(t.h.markedDelivered(who));
    case 'failed':
      return withNote(t.h.failed);
    case 'unknown':
      return t.h.unknown;
    case 'rejected':
      return withNote(who === undefined ? t.h.rejectedNobody : t.h.rejected(who));
    case 'scheduled': {
      const at = card.deliverAt === undefined ? '' : formatClock(card.deliverAt, t.lang);
      return t.h.scheduled(who ?? '?', at);
    }
    case 'cancelled':
      return withNote(who === undefined ? t.h.cancelledNobody : t.h.cancelled(who));
    case 'expired':
      return t.h.expired;
    default:
      return withNote(t.statuses[entry.status] ?? entry.status);
  }
}

function historyList(card: Card, t: Strings, locale: string): HTMLElement {
  const format = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'medium' });
  return el(
    'ol',
    { class: 'history' },
    ...card.history.map((entry, i) => {
      const date = new Date(entry.at);
      return el(
        'li',
        { 'data-status': entry.status },
        el('time', { datetime: entry.at }, Number.isNaN(date.getTime()) ? entry.at : format.format(date)),
        ' ',
        el('span', { class: 'words' }, historyWords(entry, i, card, t)),
      );
    }),
  );
}

/** Renders the detail page of confirmation `id` into `root`; returns the live-update handler. */
export function mountDetail(
  root: HTMLElement,
  id: string,
  options: DetailOptions,
): (notice: { id?: string }) => void {
  const { api, t } = options;
  let view: CardView | undefined;
  let form: EditForm | undefined;
  const sections = el('div', { class: 'sections' });
  const message = el('p', { class: 'loading', role: 'status' }, t.loading);
  const toConsole = el('p', { class: 'back' }, el('a', { href: `${options.base}/` }, t.openConsole));
  root.replaceChildren(
    ...present(
      options.link === undefined && el('p', { class: 'back' }, el('a', { href: `${options.base}/` }, t.back)),
      message,
    ),
  );

  const renderSections = (card: Card) => {
    const editing =
      card.status === 'pending' && card.editable.length > 0 && card.offer.edit && options.link === undefined;
    if (!editing) form = undefined;
    else form ??= createEditForm(card, api, t, () => view?.update(view.card));
    sections.replaceChildren(
      ...present(
        form?.element ?? false,
        el(
          'section',
          { 'aria-labelledby': 'history-title' },
          el('h2', { id: 'history-title' }, t.history),
          historyList(card, stringsForCard(t, card), options.locale),
        ),
        // A link's page, once decided (or if it opens nothing), leads on to the console.
        options.link !== undefined && card.status !== 'pending' && toConsole,
      ),
    );
  };

  const show = (card: Card) => {
    if (view === undefined) {
      view = createCardView(card, {
        ...options,
        detail: true,
        oneUse: options.link !== undefined,
        edit: () => form?.state() ?? { kind: 'none' },
        onChange: () => view && renderSections(view.card),
      });
      message.replaceWith(view.element, sections);
    } else if (card.updatedAt >= view.card.updatedAt) view.update(card);
    renderSections(view.card);
  };

  const fetchCard = async () => {
    const found = await api.get(id);
    if (!found.ok) {
      if (view === undefined) {
        message.textContent =
          found.code === 'CONFIRMATION_NOT_FOUND'
            ? t.notFound
            : found.code === 'PAYLOAD_CHANGED' && options.link !== undefined
              ? t.linkPayloadChanged
              : found.error;
        message.className = 'refused';
        message.dataset.code = found.code;
        if (options.link !== undefined) message.after(toConsole);
      }
      return;
    }
    if (found.person !== undefined) options.link?.(found.person);
    syncClock(found.serverTime);
    show(found.confirmation);
  };
  void fetchCard();
  return (notice) => {
    if (notice.id === undefined || notice.id === id) void fetchCard();
  };
}

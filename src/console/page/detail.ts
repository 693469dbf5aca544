// One confirmation's page: its card (with the same buttons as in the inbox), the exact canonical JSON,
// the digest, the full history and, for a pending one with editable fields, the edit form.
import type { Api, Card } from './api.js';
import { type CardView, createCardView } from './card.js';
import { syncClock } from './countdown.js';
import { el, present } from './dom.js';
import { createEditForm, type EditForm } from './edit-form.js';
import type { Strings } from './i18n.js';

export interface DetailOptions {
  readonly api: Api;
  readonly t: Strings;
  readonly base: string;
  readonly locale: string;
  /** On an approval link's page: told who the link is for; no way back to the inbox, no edits. */
  readonly link?: (person: { id: string; name?: string }) => void;
}

function historyList(card: Card, t: Strings, locale: string): HTMLElement {
  const format = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'medium' });
  return el(
    'ol',
    { class: 'history' },
    ...card.history.map((entry) => {
      const date = new Date(entry.at);
      return el(
        'li',
        {},
        el('time', { datetime: entry.at }, Number.isNaN(date.getTime()) ? entry.at : format.format(date)),
        ' ',
        el('span', { class: `badge status-${entry.status}` }, t.statuses[entry.status] ?? entry.status),
        entry.by !== undefined && ` ${entry.by}`,
        entry.note !== undefined && el('span', { class: 'note' }, ` — ${entry.note}`),
        entry.edit !== undefined &&
          el(
            'span',
            { class: 'edit-note' },
            ` (${t.edited(entry.edit.fields.join(', '))}; ${entry.edit.fromDigest.slice(0, 12)}… → ${entry.edit.toDigest.slice(0, 12)}…)`,
          ),
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
  root.replaceChildren(
    ...present(
      options.link === undefined && el('p', { class: 'back' }, el('a', { href: `${options.base}/` }, t.back)),
      message,
    ),
  );

  const renderSections = (card: Card) => {
    const editing = card.status === 'pending' && card.editable.length > 0 && options.link === undefined;
    if (!editing) form = undefined;
    else form ??= createEditForm(card, api, t);
    sections.replaceChildren(
      ...present(
        el(
          'section',
          { 'aria-labelledby': 'json-title' },
          el('h2', { id: 'json-title' }, t.canonicalJson),
          el('pre', { class: 'canonical' }, card.canonicalJson),
        ),
        el(
          'section',
          { 'aria-labelledby': 'digest-title' },
          el('h2', { id: 'digest-title' }, t.digest),
          el('code', { class: 'digest' }, card.digest),
        ),
        form?.element ?? false,
        el(
          'section',
          { 'aria-labelledby': 'history-title' },
          el('h2', { id: 'history-title' }, t.history),
          historyList(card, t, options.locale),
        ),
      ),
    );
  };

  const show = (card: Card) => {
    if (view === undefined) {
      view = createCardView(card, {
        ...options,
        detail: true,
        oneUse: options.link !== undefined,
        editedPayload: () => form?.editedPayload(),
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

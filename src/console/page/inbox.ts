// The inbox: an h1 with the pending count (also in the tab's title), filters (status, tool), compact
// rows newest first, "Load more" through the server's cursor, select + "Confirm selected" (which first
// lists every selected one with what confirming it will do, then what it did) / "Reject selected", and
// live updates applied in place. Next to the pending
// ones, a "Sending soon" group holds the sends approved and held for their undo window, until they go.
import type { Api, Card, Decision } from './api.js';
import {
  confirmLabel,
  type Fate,
  fateOf,
  fateText,
  isConfirmed,
  resultText,
  uncheckedOrigins,
} from './bulk-preview.js';
import { type CardView, createCardView } from './card.js';
import { syncClock } from './countdown.js';
import { describeDecision, isTaken } from './decision-words.js';
import { el } from './dom.js';
import { summarise } from './fields.js';
import { type Strings, stringsForCard } from './i18n.js';

const STATUSES = [
  'pending',
  'scheduled',
  'delivering',
  'delivered',
  'failed',
  'unknown',
  'rejected',
  'cancelled',
  'expired',
];

export interface InboxOptions {
  readonly api: Api;
  readonly t: Strings;
  readonly base: string;
  readonly locale: string;
  /** Told how many confirmations are pending ("100+" past one page), after each load and change. */
  readonly onPendingCount?: (count: string) => void;
}

/** Renders the inbox into `root`; the returned function applies one live-update notice. */
export function mountInbox(root: HTMLElement, options: InboxOptions): (notice: { id?: string }) => void {
  const { api, t } = options;
  const query = new URLSearchParams(location.search);
  const filter = { status: query.get('status') ?? 'pending', tool: query.get('tool') ?? '' };
  // A page size in the address (`?limit=20`) is passed on; the server caps it.
  const limit = query.get('limit') ?? '';
  const views = new Map<string, CardView>();
  let nextCursor: string | undefined;

  const statusSelect = el(
    'select',
    { id: 'filter-status', name: 'status' },
    el('option', { value: '' }, t.allStatuses),
  );
  for (const status of STATUSES)
    statusSelect.append(el('option', { value: status }, t.statuses[status] ?? status));
  statusSelect.value = filter.status;
  const toolSelect = el(
    'select',
    { id: 'filter-tool', name: 'tool' },
    el('option', { value: '' }, t.allTools),
  );
  const filters = el(
    'form',
    { class: 'filters', 'aria-label': t.filters },
    el('label', { for: 'filter-status' }, t.status),
    statusSelect,
    el('label', { for: 'filter-tool' }, t.tool),
    toolSelect,
  );
  filters.addEventListener('submit', (event) => event.preventDefault());

  const selectAll = el('input', { type: 'checkbox', id: 'select-all' });
  const bulkReason = el('input', {
    type: 'text',
    id: 'bulk-reason',
    name: 'reason',
    autocomplete: 'off',
    'aria-label': t.reason,
    placeholder: t.reason,
  });
  const confirmSelected = el('button', { type: 'button', class: 'primary' }, t.confirmSelected);
  const rejectSelected = el('button', { type: 'button', class: 'danger' }, t.rejectSelected);
  // What "Confirm selected" did: a summary line, then each selected one and what happened to it.
  const bulkSummary = el('p', { class: 'bulk-summary' });
  const bulkResults = el('ul', { class: 'send-list bulk-results', 'aria-label': t.bulkResultTitle });
  const bulkStatus = el(
    'div',
    { role: 'status', class: 'bulk-outcome', 'aria-live': 'polite' },
    bulkSummary,
    bulkResults,
  );
  // The confirm step of "Confirm selected": every selected one with what will happen to it, then
  // "Confirm N" or "Cancel".
  const sendList = el('ul', { class: 'send-list' });
  const sendTitle = el('h2', { id: 'send-list-title', class: 'send-list-title' });
  const sendNow = el('button', { type: 'button', class: 'primary' });
  const cancel = el('button', { type: 'button', class: 'secondary' }, t.cancel);
  const step = el(
    'section',
    { class: 'bulk-step', 'aria-labelledby': 'send-list-title', hidden: true },
    sendTitle,
    sendList,
    el('div', { class: 'buttons' }, sendNow, cancel),
  );
  const bulk = el(
    'div',
    { class: 'bulk', role: 'group', 'aria-label': t.selectAll },
    el('label', { class: 'check' }, selectAll, t.selectAll),
    el('div', { class: 'buttons' }, confirmSelected),
    el('div', { class: 'reject' }, bulkReason, rejectSelected),
    step,
    bulkStatus,
  );
  const soonList = el('div', { class: 'list' });
  const soon = el(
    'section',
    { class: 'soon', 'aria-labelledby': 'soon-title', hidden: true },
    el('h2', { id: 'soon-title', class: 'soon-title' }, t.statuses.scheduled ?? ''),
    soonList,
  );
  const list = el('div', { class: 'list' });
  const empty = el('p', { class: 'empty' }, t.empty);
  const more = el('button', { type: 'button', class: 'more secondary' }, t.loadMore);
  const loading = el('p', { class: 'loading', role: 'status' });
  root.replaceChildren(filters, bulk, soon, list, empty, more, loading);

  let bulkBusy = false;
  const selection = () => [...views.values()].filter((view) => view.isSelected);
  // A selected card "Confirm selected" lists: sent, held, one approval of several — or, needing a
  // passkey, said to be approved on its card (so the dialog says why it is left out).
  const bulkConfirmable = (view: CardView) => view.card.offer.confirm;
  let pendingTotal = '';
  const refreshControls = () => {
    const chosen = selection();
    const confirmable = chosen.filter(bulkConfirmable).length;
    const rejectable = chosen.filter((view) => view.card.offer.reject).length;
    confirmSelected.disabled = bulkBusy || confirmable === 0;
    rejectSelected.disabled = bulkBusy || rejectable === 0;
    const actionable = [...views.values()].filter(
      (view) => view.card.status === 'pending' && (view.card.offer.confirm || view.card.offer.reject),
    ).length;
    selectAll.checked = chosen.length > 0 && chosen.length === actionable;
    // The bulk bar only where it can act: some card shown here that this person may decide.
    bulk.hidden = actionable === 0;
    if (!step.hidden && (bulkBusy || confirmable === 0)) step.hidden = true;
    if (filter.status === 'pending' && nextCursor === undefined) {
      // A bundle is pending while any of its steps waits for a person, whatever its first step's status.
      const pending = (card: Card) => (card.bundleCard?.status ?? card.status) === 'pending';
      const count = String([...views.values()].filter((view) => pending(view.card)).length);
      if (count !== pendingTotal) {
        pendingTotal = count;
        options.onPendingCount?.(count);
      }
    }
    empty.hidden = views.size > 0;
    soon.hidden = soonList.childElementCount === 0;
    more.hidden = nextCursor === undefined;
  };

  /** Held sends show beside the pending ones ("Sending soon") until they are delivered. */
  const isSoon = (card: Card) => filter.status === 'pending' && card.status === 'scheduled';
  const matches = (card: Card) =>
    (!filter.status || card.status === filter.status || isSoon(card)) &&
    (!filter.tool || card.tool === filter.tool);

  /** A bundle is one card, whichever of its steps the server answered with. */
  const keyOf = (card: Card) => (card.bundleCard === undefined ? card.id : `bundle:${card.bundleCard.id}`);

  /** Adds a card in newest-first order, or updates the one already shown. */
  const place = (card: Card, atEnd: boolean) => {
    const shown = views.get(keyOf(card));
    if (shown) {
      // A bundle's card shows every step: any step's news is newer than what it shows.
      if (card.bundleCard !== undefined || card.updatedAt >= shown.card.updatedAt) shown.update(card);
      return;
    }
    const view = createCardView(card, { ...options, detail: false, onChange: refreshControls });
    views.set(keyOf(card), view);
    const into = isSoon(card) ? soonList : list;
    if (atEnd) {
      into.append(view.element);
      return;
    }
    const later = [...views.values()].find(
      (other) =>
        other !== view && other.element.parentElement === into && other.card.createdAt < card.createdAt,
    );
    if (later) into.insertBefore(view.element, later.element);
    else into.append(view.element);
  };

  /** The pending count when the rows shown are not all of them: one page of up to 100 pending. */
  const countPending = async () => {
    if (filter.status === 'pending' && nextCursor === undefined) return;
    const page = await api.list({ status: 'pending', limit: '100' });
    if (!page.ok) return;
    const count = page.nextCursor === undefined ? String(page.confirmations.length) : '100+';
    if (count !== pendingTotal) {
      pendingTotal = count;
      options.onPendingCount?.(count);
    }
  };

  const load = async (cursor?: string) => {
    more.disabled = true;
    loading.textContent = t.loading;
    const page = await api.list({ ...filter, limit, ...(cursor ? { cursor } : {}) });
    loading.textContent = '';
    more.disabled = false;
    if (!page.ok) {
      loading.textContent = describeDecision(page, 'confirm', t);
      return;
    }
    syncClock(page.serverTime);
    if (toolSelect.options.length === 1) {
      for (const tool of page.tools) toolSelect.append(el('option', { value: tool.name }, tool.title));
      toolSelect.value = filter.tool;
    }
    nextCursor = page.nextCursor;
    for (const card of page.confirmations) place(card, cursor !== undefined);
    if (cursor === undefined) await loadSoon();
    refreshControls();
    void countPending();
  };

  /** With the pending ones: the held sends, still in their undo window (one page of up to 100). */
  const loadSoon = async () => {
    if (filter.status !== 'pending') return;
    const page = await api.list({ status: 'scheduled', tool: filter.tool, limit: '100' });
    if (!page.ok) return;
    for (const card of page.confirmations) place(card, false);
  };

  const reload = () => {
    views.clear();
    list.replaceChildren();
    soonList.replaceChildren();
    nextCursor = undefined;
    const search = new URLSearchParams();
    if (filter.status !== 'pending') search.set('status', filter.status);
    if (filter.tool) search.set('tool', filter.tool);
    if (limit) search.set('limit', limit);
    const text = search.toString();
    history.replaceState(null, '', text ? `?${text}` : location.pathname);
    void load();
  };
  statusSelect.addEventListener('change', () => {
    filter.status = statusSelect.value;
    reload();
  });
  toolSelect.addEventListener('change', () => {
    filter.tool = toolSelect.value;
    reload();
  });
  more.addEventListener('click', () => void load(nextCursor));
  selectAll.addEventListener('change', () => {
    for (const view of views.values()) view.setSelected(selectAll.checked);
    refreshControls();
  });

  /**
   * "Confirm selected": first every selected card with what confirming it will do (sent now, held for
   * its undo window, one approval of several, or left out and why); "Confirm N" confirms exactly those
   * it did not leave out.
   */
  let listed: { view: CardView; fate: Fate }[] = [];
  const fateLine = (view: CardView, text: string) =>
    el(
      'li',
      { 'data-id': view.card.id },
      el('strong', {}, view.card.effect ?? stringsForCard(t, view.card).sendsWith(view.card.title)),
      el('span', { class: 'summary' }, ` — ${summarise(view.card.payload, view.card.labels)}`),
      ...uncheckedOrigins(view.card).map((line) =>
        el(
          'span',
          { class: line.check === '' ? 'origin' : 'origin unvouched' },
          line.check !== '' &&
            el('strong', { class: 'check' }, el('span', { 'aria-hidden': 'true' }, '⚠ '), line.check),
          line.check !== '' && ' — ',
          el('span', { class: line.check === '' ? 'origin-heading' : 'origin-field' }, line.field),
          `: ${line.text}`,
        ),
      ),
      el('span', { class: 'fate' }, text),
    );
  const showStep = () => {
    listed = selection().map((view) => ({ view, fate: fateOf(view.card, stringsForCard(t, view.card)) }));
    if (bulkBusy || !listed.some(({ fate }) => isConfirmed(fate) || fate.kind === 'passkey')) return;
    sendTitle.textContent = t.bulkListTitle(listed.length);
    sendList.replaceChildren(
      ...listed.map(({ view, fate }) => fateLine(view, fateText(fate, stringsForCard(t, view.card)))),
    );
    sendNow.textContent = confirmLabel(
      listed.map(({ fate }) => fate),
      t,
    );
    sendNow.disabled = !listed.some(({ fate }) => isConfirmed(fate));
    bulkSummary.textContent = '';
    bulkResults.replaceChildren();
    step.hidden = false;
    (sendNow.disabled ? cancel : sendNow).focus();
  };
  cancel.addEventListener('click', () => {
    step.hidden = true;
    listed = [];
    confirmSelected.focus();
  });

  const decideMany = async (action: 'confirm' | 'reject') => {
    const shown = listed;
    const chosen =
      action === 'confirm'
        ? shown.filter(({ view, fate }) => isConfirmed(fate) && view.isSelected).map(({ view }) => view)
        : selection().filter((view) => view.card.offer.reject);
    step.hidden = true;
    listed = [];
    if (bulkBusy || chosen.length === 0) return;
    bulkBusy = true;
    refreshControls();
    for (const view of chosen) view.setBusy(true);
    bulkSummary.textContent = t.working;
    bulkResults.replaceChildren();
    const answer =
      action === 'confirm'
        ? await api.confirmMany(chosen.map((view) => ({ id: view.card.id, digest: view.card.digest })))
        : await api.rejectMany(
            chosen.map((view) => view.card.id),
            bulkReason.value,
          );
    for (const view of chosen) view.setBusy(false);
    bulkBusy = false;
    if (!answer.ok) {
      bulkSummary.textContent = describeDecision(answer, action, t);
      refreshControls();
      return;
    }
    let done = 0;
    const results = new Map<string, Decision>();
    for (const result of answer.results) {
      const view = views.get(result.id);
      if (result.ok || isTaken(result)) done++;
      results.set(result.id, result as Decision);
      view?.setSelected(false);
      view?.showDecision(result as Decision, action);
    }
    bulkSummary.textContent = t.bulkDone(done, answer.results.length - done);
    // After a confirm, the same list as before the click, each with what happened to it.
    if (action === 'confirm')
      bulkResults.replaceChildren(
        ...shown.map(({ view, fate }) =>
          fateLine(view, resultText(fate, results.get(view.card.id), stringsForCard(t, view.card))),
        ),
      );
    refreshControls();
  };
  confirmSelected.addEventListener('click', showStep);
  sendNow.addEventListener('click', () => void decideMany('confirm'));
  rejectSelected.addEventListener('click', () => void decideMany('reject'));

  void load();

  return (notice) => {
    if (notice.id === undefined) {
      void (async () => {
        const page = await api.list({ ...filter, limit });
        if (!page.ok) return;
        syncClock(page.serverTime);
        for (const card of page.confirmations) place(card, false);
        await loadSoon();
        refreshControls();
        void countPending();
      })();
      return;
    }
    const id = notice.id;
    void (async () => {
      const found = await api.get(id);
      if (!found.ok) return;
      syncClock(found.serverTime);
      // A card already shown stays (with its new status) until the filter changes; a new one appears
      // only when it matches the filter.
      if (views.has(keyOf(found.confirmation)) || matches(found.confirmation))
        place(found.confirmation, false);
      refreshControls();
      void countPending();
    })();
  };
}

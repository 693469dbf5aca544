// One confirmation as the person decides on it: an <article class="confirmation"> holding its title,
// its payload's field view, who asked and when, a countdown, the buttons its status allows and a
// role="status" line that says what happened. One click decides; while a request runs every button
// of the card is disabled, so a double click sends one request.
import type { Api, Card, Decision } from './api.js';
import { countdown } from './countdown.js';
import { asText, el, present } from './dom.js';
import { renderFields } from './fields.js';
import type { Strings } from './i18n.js';

/** What every card needs from the page around it. */
export interface CardContext {
  readonly api: Api;
  readonly t: Strings;
  readonly base: string;
  readonly locale: string;
  /** The detail page's card links nowhere and has no checkbox. */
  readonly detail: boolean;
  /** An edited payload to confirm instead of the shown one (the detail page's edit form). */
  readonly editedPayload?: () => unknown;
  /** Called when the card's checkbox changes or its status does. */
  readonly onChange?: () => void;
  /**
   * An approval link's card: Confirm and Reject while pending, nothing else (the link cannot retry),
   * and none once a decision came back, unless it failed on the way (the link may be unspent).
   */
  readonly oneUse?: boolean;
}

/** Failures after which a link's card still offers its buttons: the decision may not have been made. */
const TRANSIENT = /^(NETWORK|STORE_FAILED|CONSOLE_FAILED|HTTP_5\d\d)$/;

export interface CardView {
  readonly element: HTMLElement;
  card: Card;
  /** Checked for "Confirm selected" (only pending cards can be). */
  readonly isSelected: boolean;
  setSelected(selected: boolean): void;
  /** Shows a newer version of the confirmation (a live update), keeping the outcome line. */
  update(card: Card): void;
  /** Shows a decision's outcome in words and the confirmation it left behind. */
  showDecision(decision: Decision, action: Action): void;
  /** Disables the buttons while a request for this card runs (the bulk actions use it too). */
  setBusy(busy: boolean): void;
}

export type Action = 'confirm' | 'reject' | 'retry' | 'markDelivered';

/** Who decided, as the history says: the approver's claim, a rejection or a manual "delivered". */
export function decider(
  card: Card,
): { what: 'confirmed' | 'rejected' | 'marked'; who: string; note?: string } | undefined {
  for (let i = card.history.length - 1; i >= 0; i--) {
    const entry = card.history[i];
    if (entry?.by === undefined) continue;
    const note = entry.note === undefined ? {} : { note: entry.note };
    if (entry.status === 'delivering') return { what: 'confirmed', who: entry.by };
    if (entry.status === 'rejected') return { what: 'rejected', who: entry.by, ...note };
    if (entry.status === 'delivered') return { what: 'marked', who: entry.by, ...note };
  }
  return undefined;
}

/** A decision in the person's words. */
export function describeDecision(decision: Decision, action: Action, t: Strings, oneUse = false): string {
  if (decision.ok) {
    if (decision.status === 'rejected') return t.rejected;
    if (action === 'markDelivered') return t.markedDelivered;
    if (decision.status === 'delivered') {
      const result = decision.confirmation.result;
      return t.delivered(result === undefined ? '' : asText(result));
    }
    return decision.message;
  }
  const status = decision.confirmation?.status;
  switch (decision.code) {
    case 'ALREADY_DECIDED': {
      const who = decision.decidedBy ?? (decision.confirmation && decider(decision.confirmation)?.who) ?? '?';
      return t.alreadyDecidedBy(who, t.statuses[status ?? ''] ?? status ?? '');
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
      return t.deliveryFailed(decision.error);
    default: {
      // The registry's message usually lists the issues already; add those it does not.
      const issues = (decision.issues ?? [])
        .map((issue) => `${issue.path || '/'}: ${issue.message}`)
        .filter((line) => !decision.error.includes(line));
      return t.failedBecause(decision.code, [decision.error, ...issues].join(' · '));
    }
  }
}

function formatTime(iso: string, locale: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(date);
}

/** Builds one card; `update` and `showDecision` keep it current. */
export function createCardView(initial: Card, ctx: CardContext): CardView {
  const { t } = ctx;
  const element = el('article', { class: 'confirmation' });
  const outcome = el('p', { role: 'status', class: 'outcome', 'aria-live': 'polite' });
  let selected = false;
  let busy = false;
  let buttons: HTMLButtonElement[] = [];
  let spent = false;

  const run = async (action: Action, button: HTMLButtonElement, input: HTMLInputElement) => {
    if (busy) return;
    view.setBusy(true);
    outcome.textContent = t.working;
    outcome.dataset.outcome = 'working';
    const { api, editedPayload } = ctx;
    const id = view.card.id;
    let decision: Decision;
    if (action === 'confirm') {
      const payload = editedPayload?.();
      decision = await api.confirm(
        id,
        payload === undefined ? { digest: view.card.digest } : { digest: view.card.digest, payload },
      );
    } else if (action === 'reject') decision = await api.reject(id, input.value);
    else if (action === 'retry') decision = await api.retry(id, view.card.digest);
    else decision = await api.markDelivered(id, input.value);
    view.setBusy(false);
    view.showDecision(decision, action);
    if (button.isConnected) button.focus();
    else element.focus();
  };

  const actions = (card: Card): HTMLElement | undefined => {
    const pending = card.status === 'pending';
    if (ctx.oneUse && (spent || !pending)) return undefined;
    if (!pending && card.status !== 'failed' && card.status !== 'unknown') return undefined;
    const label = pending ? t.reason : t.note;
    const input = el('input', {
      type: 'text',
      name: pending ? 'reason' : 'note',
      autocomplete: 'off',
      'aria-label': label,
      placeholder: label,
    });
    const make = (label: string, action: Action, kind: string) => {
      const button = el('button', { type: 'button', class: kind }, label);
      button.addEventListener('click', () => void run(action, button, input));
      return button;
    };
    buttons = pending
      ? [make(t.confirm, 'confirm', 'primary'), make(t.reject, 'reject', 'danger')]
      : [make(t.retry, 'retry', 'primary'), make(t.markDelivered, 'markDelivered', 'secondary')];
    for (const button of buttons) button.disabled = busy;
    return el('div', { class: 'actions' }, input, el('div', { class: 'buttons' }, ...buttons));
  };

  const render = (card: Card) => {
    element.dataset.id = card.id;
    element.dataset.status = card.status;
    element.setAttribute('aria-labelledby', `title-${card.id}`);
    element.tabIndex = -1;
    if (card.status !== 'pending') selected = false;
    const statusWord = t.statuses[card.status] ?? card.status;
    const heading = el(
      ctx.detail ? 'h1' : 'h2',
      { id: `title-${card.id}`, class: 'title' },
      ctx.detail
        ? card.title
        : el('a', { href: `${ctx.base}/confirmations/${encodeURIComponent(card.id)}` }, card.title),
    );
    let checkbox: HTMLInputElement | undefined;
    if (!ctx.detail && card.status === 'pending') {
      checkbox = el('input', { type: 'checkbox', class: 'select', 'aria-label': t.select(card.title) });
      checkbox.checked = selected;
      checkbox.addEventListener('change', () => {
        selected = checkbox?.checked ?? false;
        ctx.onChange?.();
      });
    }
    const who = decider(card);
    const whoText =
      who &&
      t.decidedBy(
        who.what === 'confirmed' ? t.confirmedBy : who.what === 'rejected' ? t.rejectedBy : t.markedBy,
        who.who,
      ) + (who.note ? `: ${who.note}` : '');
    const meta = el(
      'p',
      { class: 'meta' },
      el('span', { class: 'actor' }, card.actor ? t.askedBy(card.actor) : t.askedByNobody),
      ' · ',
      el('time', { datetime: card.createdAt, class: 'asked' }, formatTime(card.createdAt, ctx.locale)),
      card.status === 'pending' && ' · ',
      card.status === 'pending' && countdown(el('span', { class: 'countdown' }), card.expiresAt, t),
    );
    element.replaceChildren(
      ...present(
        el(
          'header',
          { class: 'card-head' },
          checkbox,
          heading,
          el('code', { class: 'tool' }, card.tool),
          el('span', { class: `badge status-${card.status}` }, statusWord),
        ),
        el('div', { class: 'payload', 'aria-label': t.payload }, renderFields(card.payload)),
        meta,
        whoText && el('p', { class: 'decided' }, whoText),
        card.error !== undefined && card.status !== 'delivered' && el('p', { class: 'error' }, card.error),
        actions(card) ?? false,
        outcome,
      ),
    );
  };

  const view: CardView = {
    element,
    card: initial,
    get isSelected() {
      return selected && view.card.status === 'pending';
    },
    setSelected(value) {
      selected = value && view.card.status === 'pending';
      const box = element.querySelector<HTMLInputElement>('input.select');
      if (box) box.checked = selected;
    },
    update(card) {
      view.card = card;
      const focused = element.contains(document.activeElement) ? document.activeElement : null;
      const focusClass = focused instanceof HTMLElement ? focused.className : '';
      render(card);
      if (focused && !element.contains(focused)) {
        const again = focusClass ? element.querySelector<HTMLElement>(`.${focusClass.split(' ')[0]}`) : null;
        (again ?? element).focus();
      }
      ctx.onChange?.();
    },
    showDecision(decision, action) {
      outcome.textContent = describeDecision(decision, action, t, ctx.oneUse === true);
      outcome.dataset.outcome = decision.ok ? decision.status : decision.code;
      outcome.classList.toggle('bad', !decision.ok);
      const wasSpent = spent;
      if (ctx.oneUse && (decision.ok || !TRANSIENT.test(decision.code))) spent = true;
      if (decision.confirmation) view.update(decision.confirmation);
      else if (spent !== wasSpent) view.update(view.card);
    },
    setBusy(value) {
      busy = value;
      element.setAttribute('aria-busy', String(value));
      for (const button of buttons) button.disabled = value;
    },
  };
  render(initial);
  return view;
}

// One confirmation as the person decides on it: an <article class="confirmation"> holding its title,
// what confirming does, who asked and why, its payload's fields, a countdown, the buttons the server
// offers this person, "Technical details" (digest, canonical JSON) and a role="status" line that says
// what happened. In the inbox a card is a compact row until opened with "Review"; only an open card
// offers its buttons — but for a held send's "Sending in 0:24 — Undo", on every card while it runs,
// because Undo sends nothing and its window is short. One click decides; while a request runs every
// button of the card is disabled.
import { approvalCount } from '../../messages/quorum-words.js';
import type { Card, Decision } from './api.js';
import { createBundleCardView } from './bundle-card.js';
import { confirmWords } from './button-words.js';
import type { CardContext, CardView } from './card-context.js';
import {
  askedLine,
  cardHeading,
  decidedLine,
  effectLine,
  failureLine,
  labelledBox,
  limitsList,
  payloadGroup,
  quorumNeeds,
} from './card-parts.js';
import { countdown } from './countdown.js';
import { type Action, describeDecision, isTaken, whyNotText } from './decision-words.js';
import { el, present } from './dom.js';
import type { EditState } from './edit-form.js';
import { renderFields, summarise } from './fields.js';
import { stringsForCard } from './i18n.js';
import { pageLocale } from './quorum.js';
import { whyBlock } from './why-block.js';

export type { CardContext, CardView } from './card-context.js';

/** Failures after which a link's card still offers its buttons: the decision may not have been made. */
const TRANSIENT = /^(NETWORK|STORE_FAILED|CONSOLE_FAILED|HTTP_5\d\d)$/;

const NO_EDIT: EditState = { kind: 'none' };

/** Builds one card; `update` and `showDecision` keep it current. */
export function createCardView(initial: Card, ctx: CardContext): CardView {
  // A bundle's step comes with its whole bundle: one card for all of it, one decision.
  if (initial.bundleCard !== undefined && ctx.oneUse !== true) return createBundleCardView(initial, ctx);
  // A write's card speaks of a change applied, a send's of what goes out (its grade never changes).
  const t = stringsForCard(ctx.t, initial);
  const element = el('article', { class: 'confirmation' });
  const outcome = el('p', { role: 'status', class: 'outcome', 'aria-live': 'polite' });
  let selected = false;
  let busy = false;
  let expanded = ctx.detail;
  let buttons: HTMLButtonElement[] = [];
  let spent = false;

  const run = async (action: Action, button: HTMLButtonElement, input?: HTMLInputElement) => {
    if (busy || button.disabled) return;
    const edit = ctx.edit?.() ?? NO_EDIT;
    // Only what the card shows is confirmed: an edit not previewed (or invalid) is never sent.
    if (action === 'confirm' && edit.kind !== 'none' && edit.kind !== 'previewed') return;
    view.setBusy(true);
    outcome.textContent = t.working;
    outcome.dataset.outcome = 'working';
    const { api } = ctx;
    const id = view.card.id;
    let decision: Decision;
    if (action === 'confirm') {
      decision = await api.confirm(
        id,
        edit.kind === 'previewed'
          ? { digest: view.card.digest, payload: edit.payload, editDigest: edit.digest }
          : { digest: view.card.digest },
      );
    } else if (action === 'reject') decision = await api.reject(id, input?.value ?? '');
    else if (action === 'retry') decision = await api.retry(id, view.card.digest);
    else if (action === 'cancel') decision = await api.cancel(id);
    else decision = await api.markDelivered(id, input?.value ?? '');
    view.setBusy(false);
    view.showDecision(decision, action);
    if (button.isConnected) button.focus();
    else element.focus();
  };

  const make = (label: string, action: Action, kind: string, input?: HTMLInputElement) => {
    const button = el('button', { type: 'button', class: kind }, label);
    button.addEventListener('click', () => void run(action, button, input));
    buttons.push(button);
    return button;
  };

  const whyNot = (card: Card) => {
    const words = whyNotText(card.offer, t);
    return words === undefined ? false : el('p', { class: 'why-not' }, words);
  };

  const actions = (card: Card, edit: EditState): HTMLElement | undefined => {
    const pending = card.status === 'pending';
    if (ctx.oneUse && (spent || !pending)) return undefined;
    const { offer } = card;
    const key = `${card.id}`.replace(/[^A-Za-z0-9_-]/g, '_');
    if (pending) {
      let approve: HTMLElement | false = whyNot(card);
      if (offer.confirm) {
        // The button says what pressing it will do: record one approval of several, or send — at once or
        // after the undo window.
        const send = make(confirmWords(card, t), 'confirm', 'primary');
        const waiting = edit.kind === 'unpreviewed' || edit.kind === 'invalid';
        if (waiting) send.dataset.waiting = 'edit';
        send.disabled = busy || waiting;
        const reason =
          waiting &&
          el(
            'p',
            { class: 'why-not', id: `why-${key}` },
            edit.kind === 'invalid' ? t.fixEditFirst : t.previewFirst,
          );
        if (reason) send.setAttribute('aria-describedby', `why-${key}`);
        approve = el('div', { class: 'approve' }, send, reason);
      }
      let reject: HTMLElement | false = false;
      if (offer.reject) {
        const box = labelledBox('reason', t.reason, `reason-${key}`);
        reject = el(
          'div',
          { class: 'reject' },
          box.label,
          box.input,
          make(t.reject, 'reject', 'danger', box.input),
        );
      }
      if (!approve && !reject) return undefined;
      return el('div', { class: 'actions' }, approve, reject);
    }
    if (card.status !== 'failed' && card.status !== 'unknown') return undefined;
    let retry: HTMLElement | false = whyNot(card);
    if (offer.retry) retry = el('div', { class: 'approve' }, make(t.retry, 'retry', 'primary'));
    let mark: HTMLElement | false = false;
    if (offer.markDelivered) {
      const box = labelledBox('note', t.note, `note-${key}`);
      mark = el(
        'div',
        { class: 'reject' },
        box.label,
        box.input,
        make(t.markDelivered, 'markDelivered', 'secondary', box.input),
      );
    }
    for (const button of buttons) button.disabled = button.disabled || busy;
    if (!retry && !mark) return undefined;
    return el('div', { class: 'actions' }, retry, mark);
  };

  const why = (card: Card): HTMLElement | false => whyBlock(card, t);

  /** Another pending one of this tool has the same payload: said in words, with a mark, never colour alone. */
  const alike = (card: Card): HTMLElement | false =>
    card.status === 'pending' &&
    card.alikeText !== undefined &&
    el('p', { class: 'alike', role: 'note' }, el('span', { 'aria-hidden': 'true' }, '⚠ '), card.alikeText);

  /**
   * Where each destination's value came from, in the server's words. An unvouched line (only in what
   * the agent read, or nowhere) is marked with a word and an icon, not colour alone.
   */
  const origins = (card: Card, compact: boolean): HTMLElement | false => {
    const text = card.originsText;
    if (text === undefined) return false;
    if (text.notRecorded !== undefined)
      return el(
        'p',
        { class: compact ? 'origins compact not-recorded' : 'origins not-recorded' },
        el('span', { class: 'why-label' }, `${text.heading}: `),
        text.notRecorded,
      );
    const lines = compact ? text.lines.filter((line) => line.unvouched) : text.lines;
    if (lines.length === 0) return false;
    const items = lines.map((line) =>
      el(
        'li',
        { class: line.unvouched ? 'origin unvouched' : 'origin' },
        line.unvouched &&
          el('strong', { class: 'check' }, el('span', { 'aria-hidden': 'true' }, '⚠ '), text.check),
        line.unvouched && ' — ',
        el('span', { class: 'origin-field' }, line.field),
        ': ',
        line.text,
      ),
    );
    if (compact) return el('ul', { class: 'origins compact', 'aria-label': text.heading }, ...items);
    const key = `${card.id}`.replace(/[^A-Za-z0-9_-]/g, '_');
    return el(
      'div',
      { class: 'origins', role: 'group', 'aria-labelledby': `origins-${key}` },
      el('p', { class: 'why-label', id: `origins-${key}` }, text.heading),
      el('ul', { class: 'origin-lines' }, ...items),
      text.caution !== undefined && el('p', { class: 'origin-caution' }, text.caution),
    );
  };

  const technical = (card: Card, shown: { digest: string; canonical: string }) =>
    el(
      'details',
      { class: 'tech' },
      el('summary', {}, t.technical),
      el(
        'dl',
        { class: 'fields' },
        el('dt', {}, t.toolName),
        el('dd', {}, el('code', { class: 'tool' }, card.tool)),
        el('dt', {}, t.confirmationId),
        el('dd', {}, el('code', {}, card.id)),
        card.ref !== undefined && el('dt', {}, t.ref),
        card.ref !== undefined && el('dd', {}, el('code', { class: 'ref' }, card.ref)),
        el('dt', {}, t.digest),
        el('dd', {}, el('code', { class: 'digest' }, shown.digest)),
        el('dt', {}, t.canonicalJson),
        el('dd', {}, el('pre', { class: 'canonical' }, shown.canonical)),
      ),
    );

  /** A held send's undo window: "Sending in 0:24 — Undo", Undo only when the server offers it. */
  const held = (card: Card): HTMLElement | false => {
    if (card.status !== 'scheduled' || card.deliverAt === undefined) return false;
    const left = countdown(el('span', { class: 'countdown' }), card.deliverAt, t, {
      left: t.sendingIn,
      over: t.sendingNow,
    });
    const undo = card.offer.cancel && !ctx.oneUse && make(t.undo, 'cancel', 'undo');
    if (undo) undo.disabled = busy;
    return el('p', { class: 'held' }, left, undo && ' — ', undo);
  };

  /** What went wrong with a delivery, said once: on the card (the outcome line only points to it). */
  const failure = (card: Card) =>
    (card.status === 'failed' || card.status === 'unknown') && failureLine(card, t);

  const render = (card: Card) => {
    buttons = [];
    element.dataset.id = card.id;
    element.dataset.status = card.status;
    element.dataset.expanded = String(expanded);
    element.setAttribute('aria-labelledby', `title-${card.id}`);
    element.tabIndex = -1;
    if (card.status !== 'pending') selected = false;
    const edit = card.status === 'pending' ? (ctx.edit?.() ?? NO_EDIT) : NO_EDIT;
    const shown =
      edit.kind === 'previewed'
        ? { payload: edit.payload, digest: edit.digest, canonical: edit.canonicalJson, changed: edit.changed }
        : { payload: card.payload, digest: card.digest, canonical: card.canonicalJson, changed: [] };
    const statusWord = t.statuses[card.status] ?? card.status;
    const heading = cardHeading(ctx, { id: `title-${card.id}`, title: card.title, href: card.id });
    let checkbox: HTMLInputElement | undefined;
    if (!ctx.detail && card.status === 'pending' && (card.offer.confirm || card.offer.reject)) {
      checkbox = el('input', { type: 'checkbox', class: 'select', 'aria-label': t.select(card.title) });
      checkbox.checked = selected;
      checkbox.addEventListener('change', () => {
        selected = checkbox?.checked ?? false;
        ctx.onChange?.();
      });
    }
    const meta = askedLine(card, t, ctx.locale, card.status === 'pending' ? card.expiresAt : undefined);
    const effect = effectLine(card, t, expanded ? 'p' : 'span');
    let toggle: HTMLButtonElement | false = false;
    if (!ctx.detail) {
      toggle = el(
        'button',
        { type: 'button', class: 'review secondary', 'aria-expanded': String(expanded) },
        expanded ? t.hide : t.review,
      );
      toggle.addEventListener('click', () => {
        expanded = !expanded;
        render(view.card);
        element.querySelector<HTMLElement>('button.review')?.focus();
      });
    }
    const { quorum } = card;
    // How far the approvals are, while several people must approve: "1 of 2".
    const count =
      card.status === 'pending' &&
      quorum !== undefined &&
      quorum.needed > 1 &&
      el(
        'span',
        { class: 'quorum-count' },
        // Labelled in words on the page, not only for screen readers: "Approvals: 0 of 2".
        `${t.approvals} `,
        approvalCount(pageLocale(t.lang), quorum.approvedBy.length, quorum.needed),
      );
    const head = el(
      'header',
      { class: 'card-head' },
      checkbox,
      heading,
      el('span', { class: `badge status-${card.status}` }, statusWord),
      count,
      meta,
      toggle,
    );
    if (!expanded) {
      // A compact row: what confirming does and a one-line summary of what is sent; "Review" opens it.
      // An effect that already names every field leaves nothing to summarise: no dangling dash.
      const summary = summarise(card.payload, card.labels, card.effect);
      element.replaceChildren(
        ...present(
          head,
          el(
            'p',
            { class: 'line' },
            effect,
            summary !== '' && el('span', { class: 'summary' }, `— ${summary}`),
          ),
          card.status === 'pending' && origins(card, true),
          alike(card),
          decidedLine(card, t),
          held(card),
          failure(card),
          outcome,
        ),
      );
      return;
    }
    const result =
      card.status === 'delivered' &&
      card.result !== undefined &&
      el('div', { class: 'result' }, el('p', { class: 'why-label' }, t.result), renderFields(card.result));
    element.replaceChildren(
      ...present(
        head,
        effect,
        quorumNeeds(card, t),
        alike(card),
        limitsList(card),
        why(card),
        origins(card, false),
        payloadGroup(card, t, { payload: shown.payload, changed: shown.changed, label: t.payload }),
        result,
        failure(card),
        decidedLine(card, t),
        held(card),
        actions(card, edit) ?? false,
        technical(card, shown),
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
      selected =
        value && view.card.status === 'pending' && (view.card.offer.confirm || view.card.offer.reject);
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
      outcome.classList.toggle('bad', !decision.ok && !isTaken(decision));
      const wasSpent = spent;
      if (ctx.oneUse && (decision.ok || !TRANSIENT.test(decision.code))) spent = true;
      if (decision.confirmation) view.update(decision.confirmation);
      else if (spent !== wasSpent) view.update(view.card);
    },
    setBusy(value) {
      busy = value;
      element.setAttribute('aria-busy', String(value));
      for (const button of buttons) button.disabled = value || button.dataset.waiting !== undefined;
    },
  };
  render(initial);
  return view;
}

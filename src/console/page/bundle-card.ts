// A bundle as one card: every step exactly as it will go out, in order (its title, what it does, its
// payload's fields, where it stands), and one decision — "Approve all N steps" or Reject — bound to the
// bundle digest. The card is always open: a person decides on what they read, so nothing is folded away.
import type { Card, Decision } from './api.js';
import { bundleWords } from './bundle-words.js';
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
import { decider, whyNotText } from './decision-words.js';
import { el, present } from './dom.js';
import { stringsForCard } from './i18n.js';
import { whyBlock } from './why-block.js';

type Bundle = NonNullable<Card['bundleCard']>;

/** The bundle's card; `update` and `showDecision` keep it current, like any card. */
export function createBundleCardView(initial: Card, ctx: CardContext): CardView {
  const element = el('article', { class: 'confirmation bundle' });
  const outcome = el('p', { role: 'status', class: 'outcome', 'aria-live': 'polite' });
  let busy = false;
  let buttons: HTMLButtonElement[] = [];
  const w = bundleWords(ctx.t.lang);

  const run = async (kind: 'confirm' | 'reject', input?: HTMLInputElement) => {
    const bundle = view.card.bundleCard;
    if (busy || bundle === undefined) return;
    view.setBusy(true);
    outcome.textContent = ctx.t.working;
    outcome.dataset.outcome = 'working';
    const decision =
      kind === 'confirm'
        ? await ctx.api.confirmBundle(bundle.id, bundle.digest)
        : await ctx.api.rejectBundle(bundle.id, input?.value ?? '');
    view.setBusy(false);
    view.showDecision(decision, kind);
  };

  const make = (label: string, kind: 'confirm' | 'reject', style: string, input?: HTMLInputElement) => {
    const button = el('button', { type: 'button', class: style }, label);
    button.addEventListener('click', () => void run(kind, input));
    button.disabled = busy;
    buttons.push(button);
    return button;
  };

  const step = (card: Card, i: number, steps: readonly Card[]) => {
    const n = steps.length;
    const t = stringsForCard(ctx.t, card);
    // Approved and held back by the step before it: said so, not "sending soon".
    const behind = card.status === 'scheduled' && i > 0 && steps[i - 1]?.status !== 'delivered';
    const badge = behind ? w.waitingFor(i) : (t.statuses[card.status] ?? card.status);
    const stopped =
      decider(card, t.lang) === undefined && card.status !== 'pending'
        ? card.history.at(-1)?.note
        : undefined;
    return el(
      'li',
      { class: 'bundle-step', 'data-id': card.id, 'data-status': card.status },
      el(
        'div',
        { class: 'step-head' },
        el(ctx.detail ? 'h2' : 'h3', { class: 'step-title' }, w.stepOf(i + 1, n, card.title)),
        el('span', { class: `badge status-${card.status}` }, badge),
      ),
      effectLine(card, t),
      quorumNeeds(card, t),
      limitsList(card),
      payloadGroup(card, t, {
        payload: card.payload,
        changed: [],
        label: `${t.payload} — ${w.stepOf(i + 1, n, card.title)}`,
      }),
      failureLine(card, t),
      decidedLine(card, t),
      stopped !== undefined && el('p', { class: 'decided' }, stopped),
    );
  };

  const actions = (bundle: Bundle) => {
    const t = ctx.t;
    const key = bundle.id.replace(/[^A-Za-z0-9_-]/g, '_');
    const whyNot = whyNotText({ ...NO_OFFER, ...bundle.offer }, t);
    const approve = bundle.offer.confirm
      ? el('div', { class: 'approve' }, make(w.approveAll(bundle.steps.length), 'confirm', 'primary'))
      : whyNot !== undefined && bundle.status === 'pending' && el('p', { class: 'why-not' }, whyNot);
    let reject: HTMLElement | false = false;
    if (bundle.offer.reject) {
      const box = labelledBox('reason', t.reason, `reason-${key}`);
      reject = el(
        'div',
        { class: 'reject' },
        box.label,
        box.input,
        make(w.rejectAll, 'reject', 'danger', box.input),
      );
    }
    return (approve || reject) && el('div', { class: 'actions' }, approve, reject);
  };

  const technical = (bundle: Bundle) =>
    el(
      'details',
      { class: 'tech' },
      el('summary', {}, ctx.t.technical),
      el(
        'dl',
        { class: 'fields' },
        el('dt', {}, w.bundleDigest),
        el('dd', {}, el('code', { class: 'digest bundle-digest' }, bundle.digest)),
        ...bundle.steps.flatMap((card, i) => [
          el('dt', {}, w.stepOf(i + 1, bundle.steps.length, card.tool)),
          el(
            'dd',
            {},
            el('code', { class: 'digest' }, card.digest),
            el('pre', { class: 'canonical' }, card.canonicalJson),
          ),
        ]),
      ),
    );

  const render = (card: Card) => {
    buttons = [];
    const bundle = card.bundleCard;
    if (bundle === undefined) return;
    const t = ctx.t;
    const n = bundle.steps.length;
    const titleId = `title-${bundle.id}`;
    element.dataset.id = card.id;
    element.dataset.bundle = bundle.id;
    element.dataset.status = bundle.status === 'pending' ? 'pending' : bundle.status;
    element.setAttribute('aria-labelledby', titleId);
    element.tabIndex = -1;
    const open = bundle.steps.find((s) => s.status === 'pending');
    const heading = cardHeading(ctx, { id: titleId, title: w.heading(n), href: card.id });
    const head = el(
      'header',
      { class: 'card-head' },
      heading,
      el(
        'span',
        { class: `badge status-${bundle.status === 'stopped' ? 'rejected' : bundle.status}` },
        w.statuses[bundle.status],
      ),
      askedLine(card, t, ctx.locale, open?.expiresAt),
    );
    const why = whyBlock(card, t);
    element.replaceChildren(
      ...present(
        head,
        why,
        el('p', { class: 'in-order' }, w.inOrder),
        el(
          'ol',
          { class: 'bundle-steps', 'aria-label': w.steps },
          ...bundle.steps.map((s, i) => step(s, i, bundle.steps)),
        ),
        actions(bundle),
        technical(bundle),
        outcome,
      ),
    );
  };

  const view: CardView = {
    element,
    card: initial,
    get isSelected() {
      return false;
    },
    setSelected() {},
    update(card) {
      // The outcome line says what a decision did; once the bundle moved on, it no longer holds.
      const said = outcome.dataset.outcome;
      if (said !== undefined && said !== 'working' && said !== card.bundleCard?.status) {
        outcome.textContent = '';
        delete outcome.dataset.outcome;
      }
      view.card = card;
      render(card);
      ctx.onChange?.();
    },
    showDecision(decision: Decision, action) {
      const bundle = decision.confirmation?.bundleCard;
      // A rejection's words come from the server: what it stopped, and what had already gone.
      outcome.textContent =
        decision.ok && bundle !== undefined && action !== 'reject'
          ? w.done[bundle.status]
          : decision.ok
            ? decision.message
            : decision.error;
      outcome.dataset.outcome = decision.ok ? (bundle?.status ?? decision.status) : decision.code;
      outcome.classList.toggle('bad', !decision.ok);
      if (decision.confirmation?.bundleCard !== undefined) view.update(decision.confirmation);
      if (!element.contains(document.activeElement)) element.focus();
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

const NO_OFFER = {
  confirm: false,
  reject: false,
  edit: false,
  retry: false,
  markDelivered: false,
  cancel: false,
};

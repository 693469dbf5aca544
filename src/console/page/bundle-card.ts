// A bundle as one card: every step exactly as it will go out, in order (its title, what it does, its
// payload's fields, where it stands), and one decision — "Approve all N steps" or Reject — bound to the
// bundle digest. The card is always open: a person decides on what they read, so nothing is folded away.
import { passkeyWords, requiresPasskey } from '../../messages/passkey-words.js';
import type { Card, Decision } from './api.js';
import { bundleWords } from './bundle-words.js';
import type { CardContext, CardView } from './card-context.js';
import { countdown } from './countdown.js';
import { decidedText, decider, formatTime, nameOn, whyNotText } from './decision-words.js';
import { el, present } from './dom.js';
import { renderFields } from './fields.js';
import { stringsForCard } from './i18n.js';
import { approveWithPasskey } from './passkey-approval.js';
import { quorumLine } from './quorum.js';
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
    // One assertion over the bundle digest approves every step the person may approve.
    const decision =
      kind === 'reject'
        ? await ctx.api.rejectBundle(bundle.id, input?.value ?? '')
        : needsPasskey(bundle)
          ? await approveWithPasskey(
              ctx.api,
              { kind: 'bundle', id: bundle.id, digest: bundle.digest },
              (passkey) => ctx.api.confirmBundle(bundle.id, bundle.digest, passkey),
            )
          : await ctx.api.confirmBundle(bundle.id, bundle.digest);
    view.setBusy(false);
    view.showDecision(decision, kind);
  };

  const make = (
    label: string,
    kind: 'confirm' | 'reject',
    style: string,
    input?: HTMLInputElement,
    passkey = false,
  ) => {
    const key = (initial.bundleCard?.id ?? '').replace(/[^A-Za-z0-9_-]/g, '_');
    const button = el(
      'button',
      { type: 'button', class: style, 'aria-describedby': passkey ? `passkey-${key}` : undefined },
      label,
    );
    button.addEventListener('click', () => void run(kind, input));
    button.disabled = busy;
    buttons.push(button);
    return button;
  };

  const step = (card: Card, i: number, steps: readonly Card[]) => {
    const n = steps.length;
    const t = stringsForCard(ctx.t, card);
    const needs = card.status === 'pending' ? quorumLine(card, t) : undefined;
    // Approved and held back by the step before it: said so, not "sending soon".
    const behind = card.status === 'scheduled' && i > 0 && steps[i - 1]?.status !== 'delivered';
    const badge = behind ? w.waitingFor(i) : (t.statuses[card.status] ?? card.status);
    const who = decider(card, t.lang);
    const whoText = who && decidedText(who, t);
    const stopped = who === undefined && card.status !== 'pending' ? card.history.at(-1)?.note : undefined;
    return el(
      'li',
      { class: 'bundle-step', 'data-id': card.id, 'data-status': card.status },
      el(
        'div',
        { class: 'step-head' },
        el(ctx.detail ? 'h2' : 'h3', { class: 'step-title' }, w.stepOf(i + 1, n, card.title)),
        el('span', { class: `badge status-${card.status}` }, badge),
      ),
      el(
        'p',
        { class: 'effect' },
        el('span', { class: 'sr-only' }, `${t.whatHappens}: `),
        card.effect ?? t.sendsWith(card.title),
      ),
      needs !== undefined && el('p', { class: 'quorum' }, needs),
      // Where each of the step's limits stands, as on any card.
      card.status === 'pending' &&
        card.limitsText !== undefined &&
        card.limitsText.length > 0 &&
        el('ul', { class: 'limits' }, ...card.limitsText.map((line) => el('li', {}, line))),
      el(
        'div',
        { class: 'payload', role: 'group', 'aria-label': `${t.payload} — ${w.stepOf(i + 1, n, card.title)}` },
        renderFields(card.payload, { labels: card.labels, changed: [], changedMark: t.editedMark }),
      ),
      card.error !== undefined && el('p', { class: 'error' }, t.whatWentWrong(card.error)),
      whoText && el('p', { class: 'decided' }, whoText),
      stopped !== undefined && el('p', { class: 'decided' }, stopped),
    );
  };

  const actions = (bundle: Bundle) => {
    const t = ctx.t;
    const key = bundle.id.replace(/[^A-Za-z0-9_-]/g, '_');
    const whyNot = whyNotText({ ...NO_OFFER, ...bundle.offer }, t);
    const passkey = needsPasskey(bundle);
    const words = passkeyWords(t.lang);
    const n = bundle.steps.length;
    const approve = bundle.offer.confirm
      ? el(
          'div',
          { class: 'approve' },
          passkey && el('p', { class: 'passkey-note', id: `passkey-${key}` }, words.before),
          make(passkey ? words.approveAll(n) : w.approveAll(n), 'confirm', 'primary', undefined, passkey),
        )
      : whyNot !== undefined && bundle.status === 'pending' && el('p', { class: 'why-not' }, whyNot);
    let reject: HTMLElement | false = false;
    if (bundle.offer.reject) {
      const input = el('input', {
        type: 'text',
        name: 'reason',
        id: `reason-${key}`,
        autocomplete: 'off',
        placeholder: t.reason,
      });
      reject = el(
        'div',
        { class: 'reject' },
        el('label', { for: `reason-${key}`, class: 'sr-only' }, t.reason),
        input,
        make(w.rejectAll, 'reject', 'danger', input),
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
    const heading = el(
      ctx.detail ? 'h1' : 'h2',
      { id: titleId, class: 'title' },
      ctx.detail
        ? w.heading(n)
        : el('a', { href: `${ctx.base}/confirmations/${encodeURIComponent(card.id)}` }, w.heading(n)),
    );
    const head = el(
      'header',
      { class: 'card-head' },
      heading,
      el(
        'span',
        { class: `badge status-${bundle.status === 'stopped' ? 'rejected' : bundle.status}` },
        w.statuses[bundle.status],
      ),
      el(
        'p',
        { class: 'meta' },
        el('span', { class: 'actor' }, card.actor ? t.askedBy(nameOn(card, card.actor)) : t.askedByNobody),
        ' · ',
        el('time', { datetime: card.createdAt, class: 'asked' }, formatTime(card.createdAt, ctx.locale)),
        open !== undefined && ' · ',
        open !== undefined && countdown(el('span', { class: 'countdown' }), open.expiresAt, t),
      ),
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

/** A bundle needs a passkey when any of its steps does: one assertion over the bundle digest. */
function needsPasskey(bundle: Bundle): boolean {
  return bundle.steps.some((step) => requiresPasskey(step));
}

// The parts every card is built from, each built once: a confirmation's card and each step of a
// bundle's card say who asked and when, what confirming does, what the approvers' rules still ask,
// where the limits stand, the payload's fields, what went wrong and who decided — the same way.
import type { Card } from './api.js';
import { countdown } from './countdown.js';
import { decidedText, decider, formatTime, nameOn } from './decision-words.js';
import { el } from './dom.js';
import { renderFields } from './fields.js';
import type { Strings } from './i18n.js';
import { quorumLine } from './quorum.js';

/** The card's title: a heading, a link to its own page in a list. */
export function cardHeading(
  { detail, base }: { readonly detail: boolean; readonly base: string },
  { id, title, href }: { readonly id: string; readonly title: string; readonly href: string },
): HTMLHeadingElement {
  return el(
    detail ? 'h1' : 'h2',
    { id, class: 'title' },
    detail ? title : el('a', { href: `${base}/confirmations/${encodeURIComponent(href)}` }, title),
  );
}

/** "Asked by Li · 14:02 · 4:59 left": who asked, when, and how long it stays open (when it does). */
export function askedLine(
  card: Card,
  t: Strings,
  locale: string,
  expiresAt: string | undefined,
): HTMLElement {
  return el(
    'p',
    { class: 'meta' },
    el('span', { class: 'actor' }, card.actor ? t.askedBy(nameOn(card, card.actor)) : t.askedByNobody),
    ' · ',
    el('time', { datetime: card.createdAt, class: 'asked' }, formatTime(card.createdAt, locale)),
    expiresAt !== undefined && ' · ',
    expiresAt !== undefined && countdown(el('span', { class: 'countdown' }), expiresAt, t),
  );
}

/** What confirming does, in the server's words ("Sends an email to ana@example.com"). */
export function effectLine(card: Card, t: Strings, tag: 'p' | 'span' = 'p'): HTMLElement {
  return el(
    tag,
    { class: 'effect' },
    el('span', { class: 'sr-only' }, `${t.whatHappens}: `),
    card.effect ?? t.sendsWith(card.title),
  );
}

/** What the approvers' rules still ask of a pending card ("Needs 2 approvals from finance"), or nothing. */
export function quorumNeeds(card: Card, t: Strings): HTMLElement | false {
  const needs = card.status === 'pending' ? quorumLine(card, t) : undefined;
  return needs !== undefined && el('p', { class: 'quorum' }, needs);
}

/** Where each of a pending call's limits stands, said before the click ("Limit cap: 150 of 500 today"). */
export function limitsList(card: Card): HTMLElement | false {
  return (
    card.status === 'pending' &&
    card.limitsText !== undefined &&
    card.limitsText.length > 0 &&
    el('ul', { class: 'limits' }, ...card.limitsText.map((line) => el('li', {}, line)))
  );
}

/** The payload's fields exactly as they go out, an edited field marked in words. */
export function payloadGroup(
  card: Card,
  t: Strings,
  shown: { readonly payload: unknown; readonly changed: readonly string[]; readonly label: string },
): HTMLElement {
  return el(
    'div',
    { class: 'payload', role: 'group', 'aria-label': shown.label },
    renderFields(shown.payload, { labels: card.labels, changed: shown.changed, changedMark: t.editedMark }),
  );
}

/** What went wrong with a delivery, said once, on the card. */
export function failureLine(card: Card, t: Strings): HTMLElement | false {
  return card.error !== undefined && el('p', { class: 'error' }, t.whatWentWrong(card.error));
}

/** Who decided and when ("Confirmed by Li at 14:03"), or nothing while nobody has. */
export function decidedLine(card: Card, t: Strings): HTMLElement | false {
  const who = decider(card, t.lang);
  return who !== undefined && el('p', { class: 'decided' }, decidedText(who, t));
}

/** A text box labelled for screen readers, its placeholder the same words: a reason, a note. */
export function labelledBox(
  name: string,
  label: string,
  id: string,
): { readonly input: HTMLInputElement; readonly label: HTMLLabelElement } {
  const input = el('input', { type: 'text', name, id, autocomplete: 'off', placeholder: label });
  return { input, label: el('label', { for: id, class: 'sr-only' }, label) };
}

// Why the asker wants it, in their own words, and where to read more: one block for a confirmation's
// card and a bundle's.
import type { Card } from './api.js';
import { nameOn } from './decision-words.js';
import { el } from './dom.js';
import type { Strings } from './i18n.js';
import { safeLinks } from './safe-links.js';

/** The asker's note and links, or nothing when they gave neither. */
export function whyBlock(card: Card, t: Strings): HTMLElement | false {
  const links = safeLinks(card.links);
  if (card.note === undefined && links.length === 0) return false;
  return el(
    'div',
    { class: 'why' },
    // The note is the asker's own text (often an agent's): said so, so it reads as a claim, not as ours.
    el('p', { class: 'why-label' }, card.actor ? t.whyFrom(nameOn(card, card.actor)) : t.why),
    card.note !== undefined && el('p', { class: 'note' }, card.note),
    links.length > 0 &&
      el(
        'ul',
        { class: 'links' },
        ...links.map((link) =>
          el(
            'li',
            {},
            el('a', { href: link.url, rel: 'noopener noreferrer', target: '_blank' }, link.label),
            // Where it really goes: a label can say anything, the host cannot.
            el('span', { class: 'link-host' }, ` (${new URL(link.url).host})`),
          ),
        ),
      ),
  );
}

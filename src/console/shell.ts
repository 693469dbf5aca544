import type { Locale } from '../messages/index.js';
import { escapeHtml } from '../util/escape-html.js';
import { consoleWords } from './console-messages.js';

const HTML = { 'content-type': 'text/html; charset=utf-8' };

/** The tab's icon: a check mark in a rounded square, inline (a `data:` image the CSP allows). */
const FAVICON =
  'data:image/svg+xml,' +
  encodeURIComponent(
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#0b5cd5"/>' +
      '<path d="M9 16.5l4.5 4.5L23 11.5" fill="none" stroke="#fff" stroke-width="3.5" stroke-linecap="round" stroke-linejoin="round"/></svg>',
  );
const ICON = `<link rel="icon" type="image/svg+xml" href="${escapeHtml(FAVICON)}">`;

/**
 * The page every console address serves: an empty mount point that the console's own script fills
 * in. The base path, the language and the person's id are attributes, each HTML-escaped; nothing
 * from a confirmation is ever in the HTML. In `link` mode (an approval link's page, served to anyone:
 * it holds nothing) the script reads the token from the address's fragment.
 */
export function shellResponse(base: string, locale: Locale, personId: string, mode?: 'link'): Response {
  const b = escapeHtml(base);
  const l = escapeHtml(locale);
  const linkMode = mode === 'link' ? ' data-mode="link"' : '';
  const html =
    `<!doctype html><html lang="${l}"><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<title>${escapeHtml(consoleWords(locale).title)}</title>${ICON}` +
    `<link rel="stylesheet" href="${b}/assets/console.css"></head><body>` +
    `<div id="app" data-base="${b}" data-locale="${l}" data-person="${escapeHtml(personId)}"${linkMode}></div>` +
    `<script src="${b}/assets/console.js" defer></script></body></html>`;
  return new Response(html, { status: 200, headers: HTML });
}

/** The 401 a page address answers when nobody is signed in: a small page in the person's language. */
export function signInResponse(base: string, locale: Locale): Response {
  const words = consoleWords(locale);
  const html =
    `<!doctype html><html lang="${escapeHtml(locale)}"><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<title>${escapeHtml(words.signInTitle)}</title>${ICON}` +
    `<link rel="stylesheet" href="${escapeHtml(base)}/assets/console.css"></head><body>` +
    `<main><h1>${escapeHtml(words.signInTitle)}</h1><p>${escapeHtml(words.signIn)}</p></main></body></html>`;
  return new Response(html, { status: 401, headers: HTML });
}

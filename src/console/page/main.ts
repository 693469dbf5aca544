// The approvals console's page: reads its settings from #app (set by the server's HTML shell), then
// shows the inbox at P/, one confirmation at P/confirmations/<id> (kept current by live updates), or
// the person's passkeys at P/passkeys.
import { passkeyWords } from '../../messages/passkey-words.js';
import { createApi } from './api.js';
import { mountDetail } from './detail.js';
import { el } from './dom.js';
import { stringsFor } from './i18n.js';
import { mountInbox } from './inbox.js';
import { listen } from './live.js';
import { mountPasskeys } from './passkeys-page.js';

function start(): void {
  const app = document.getElementById('app');
  if (app === null) return;
  const base = app.dataset.base ?? '';
  const locale = app.dataset.locale === 'zh-CN' ? 'zh-CN' : 'en';
  const t = stringsFor(locale);
  document.title = t.appTitle;
  if (app.dataset.mode === 'link') {
    startLink(app, base, locale);
    return;
  }
  const api = createApi(base, t.networkError);

  const liveState = el('span', { class: 'live', 'data-live': 'off' }, t.offline);
  const person = el('p', { class: 'person' }, app.dataset.person ? t.signedInAs(app.dataset.person) : '');
  void api.session().then((session) => {
    if (session.ok && session.person.name) {
      person.textContent = t.signedInAs(`${session.person.name} (${session.person.id})`);
    }
  });
  const main = el('main', { id: 'main' });
  const path = location.pathname.slice(base.length);
  const match = /^\/confirmations\/([^/]+)\/?$/.exec(path);
  const onPasskeys = /^\/passkeys\/?$/.test(path);
  // The person's own passkeys, a page of its own (the same header, the inbox one link away).
  const nav = el(
    'nav',
    { class: 'nav' },
    el(
      'a',
      { href: `${base}/passkeys`, ...(onPasskeys ? { 'aria-current': 'page' } : {}) },
      passkeyWords(locale).page.link,
    ),
  );
  // The inbox's h1 is the console's name and its pending count; a detail page's is the card's title.
  const count = el('span', { class: 'count', hidden: true });
  const brand =
    match?.[1] || onPasskeys
      ? el('p', { class: 'brand' }, el('a', { href: `${base}/` }, t.appTitle))
      : el('h1', { class: 'brand' }, t.appTitle, ' ', count);
  app.replaceChildren(el('header', { class: 'top' }, brand, nav, person, liveState), main);

  const options = { api, t, base, locale };
  const onPendingCount = (n: string) => {
    count.hidden = false;
    count.textContent = t.pendingCount(n);
    document.title = n === '0' ? t.appTitle : t.titleWithCount(n);
  };
  if (onPasskeys) {
    document.title = `${passkeyWords(locale).page.heading} — ${t.appTitle}`;
    liveState.hidden = true;
    mountPasskeys(main, options);
    return;
  }
  const onNotice = match?.[1]
    ? mountDetail(main, decodeURIComponent(match[1]), options)
    : mountInbox(main, { ...options, onPendingCount });
  listen(api.eventsUrl, onNotice, (connected) => {
    liveState.dataset.live = connected ? 'on' : 'off';
    liveState.textContent = connected ? t.live : t.offline;
  });
}

/**
 * An approval link's page, P/link/<id>#<token>: that one confirmation only, decided as the person the
 * link is for. The token never leaves the page but in the header of its own requests; no inbox, no
 * edits, no live stream (an EventSource cannot send the header).
 */
function startLink(app: HTMLElement, base: string, locale: 'en' | 'zh-CN'): void {
  const t = stringsFor(locale);
  const match = /^\/link\/([^/]+)\/?$/.exec(location.pathname.slice(base.length));
  const token = linkToken();
  const api = createApi(base, t.networkError, token);
  const person = el('p', { class: 'person' });
  const main = el('main', { id: 'main' });
  app.replaceChildren(el('header', { class: 'top' }, el('p', { class: 'brand' }, t.appTitle), person), main);
  mountDetail(main, match?.[1] ? decodeURIComponent(match[1]) : '', {
    api,
    t,
    base,
    locale,
    link: (who) => {
      person.textContent = t.linkFor(who.name ? `${who.name} (${who.id})` : who.id);
    },
  });
}

/**
 * The link's token, taken out of the address bar once read (so it is not in the history, a bookmark
 * or a screenshot) and kept for this tab only, so a reload still opens the page.
 */
function linkToken(): string {
  const key = `graded-tools-link:${location.pathname}`;
  const fromHash = location.hash.replace(/^#/, '');
  try {
    if (fromHash !== '') {
      sessionStorage.setItem(key, fromHash);
      history.replaceState(null, '', location.pathname + location.search);
      return fromHash;
    }
    return sessionStorage.getItem(key) ?? '';
  } catch {
    return fromHash; // storage refused (a private mode): the address keeps the token
  }
}

start();

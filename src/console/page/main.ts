// The approvals console's page: reads its settings from #app (set by the server's HTML shell), then
// shows the inbox at P/ or one confirmation at P/confirmations/<id>, kept current by live updates.
import { createApi } from './api.js';
import { mountDetail } from './detail.js';
import { el } from './dom.js';
import { stringsFor } from './i18n.js';
import { mountInbox } from './inbox.js';
import { listen } from './live.js';

function start(): void {
  const app = document.getElementById('app');
  if (app === null) return;
  const base = app.dataset.base ?? '';
  const locale = app.dataset.locale === 'zh-CN' ? 'zh-CN' : 'en';
  const t = stringsFor(locale);
  const api = createApi(base, t.networkError);
  document.title = t.appTitle;

  const liveState = el('span', { class: 'live', 'data-live': 'off' }, t.offline);
  const person = el('p', { class: 'person' }, app.dataset.person ? t.signedInAs(app.dataset.person) : '');
  void api.session().then((session) => {
    if (session.ok && session.person.name) {
      person.textContent = t.signedInAs(`${session.person.name} (${session.person.id})`);
    }
  });
  const main = el('main', { id: 'main' });
  app.replaceChildren(
    el(
      'header',
      { class: 'top' },
      el('p', { class: 'brand' }, el('a', { href: `${base}/` }, t.appTitle)),
      person,
      liveState,
    ),
    main,
  );

  const path = location.pathname.slice(base.length);
  const match = /^\/confirmations\/([^/]+)\/?$/.exec(path);
  const options = { api, t, base, locale };
  const onNotice = match?.[1]
    ? mountDetail(main, decodeURIComponent(match[1]), options)
    : mountInbox(main, options);
  listen(api.eventsUrl, onNotice, (connected) => {
    liveState.dataset.live = connected ? 'on' : 'off';
    liveState.textContent = connected ? t.live : t.offline;
  });
}

start();

// `npm run console`: the support desk with its approvals console at http://127.0.0.1:3000. A scripted
// agent asks to send a customer reply every few seconds; confirmations live in a SQLite file under
// .tmp/, so they survive a restart; a person picks who they are on a DEMO-ONLY sign-in page and
// decides in the browser — or opens the one-time approval link printed for Wu, with no sign-in at all,
// as an approver would from an email. Ctrl-C stops it.
//
// Environment: PORT (default 3000; 0 picks a free one), DEMO_DB (default .tmp/console-demo.db),
// DEMO_INTERVAL_MS (default 5000).
import { mkdirSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, resolve } from 'node:path';
import {
  type ApprovalsConsole,
  type ConsolePerson,
  createApprovalsConsole,
  toNodeListener,
} from 'graded-tools/console';
import { createSqliteStore } from 'graded-tools/sqlite';
import { createSupportDeskData, createSupportDeskRegistry } from './support-desk-registry.js';

const port = Number(process.env.PORT ?? 3000);
const dbPath = resolve(process.env.DEMO_DB ?? '.tmp/console-demo.db');
const intervalMs = Number(process.env.DEMO_INTERVAL_MS ?? 5000);

mkdirSync(dirname(dbPath), { recursive: true });
const store = createSqliteStore({ path: dbPath });
const data = createSupportDeskData();
const registry = createSupportDeskRegistry(data, {
  confirmations: store,
  // Four eyes: Ana, who asks, cannot also confirm (sign in as her to see the refusal).
  requireDifferentApprover: true,
  onEvent: (event) => {
    if (event.type !== 'confirmation' || event.action === 'created') return;
    console.log(
      `  ${event.action.padEnd(9)} ${event.confirmationId.slice(0, 8)}…${event.by ? ` by ${event.by}` : ''}`,
    );
  },
});

// DEMO ONLY: who you are is whatever the `demo-person` cookie says, picked on /demo/sign-in with no
// password. A real app's `authenticate` reads its own session instead.
const PEOPLE: readonly ConsolePerson[] = [
  { id: 'lead-li', name: 'Li (desk lead)', scope: 'desk', flags: { kb: true } },
  { id: 'lead-wu', name: 'Wu (desk lead)', scope: 'desk', flags: { kb: true } },
  { id: 'agent-ana', name: 'Ana (the agent who asks)', scope: 'desk' },
];
const personFrom = (cookie: string | null | undefined): ConsolePerson | undefined => {
  const id = /(?:^|;\s*)demo-person=([a-z-]+)/.exec(cookie ?? '')?.[1];
  return PEOPLE.find((person) => person.id === id);
};

// Made once the server listens, so approval links carry the port it got (PORT=0 picks one).
let approvals: ApprovalsConsole | undefined;
let consoleListener: ((req: IncomingMessage, res: ServerResponse) => void) | undefined;
const openConsole = (origin: string) => {
  approvals = createApprovalsConsole({
    registry,
    authenticate: (request) => personFrom(request.headers.get('cookie')),
    publicUrl: origin, // where the one-time approval links point
  });
  consoleListener = toNodeListener(approvals);
};

const SIGN_IN_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>Demo sign-in</title></head>
<body><main><h1>Demo sign-in (no passwords: for this demo only)</h1>
<p>Pick who you are. A real app signs people in its own way and tells the console who they are.</p>
<form method="post" action="/demo/sign-in">
${PEOPLE.map((p) => `<p><button name="person" value="${p.id}">${p.name}</button></p>`).join('\n')}
</form></main></body></html>`;

function demoPage(req: IncomingMessage, res: ServerResponse): boolean {
  const path = new URL(req.url ?? '/', 'http://demo').pathname;
  if (path === '/demo/sign-in' && req.method === 'GET') {
    res.writeHead(200, {
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': "default-src 'none'; form-action 'self'; frame-ancestors 'none'",
      'cache-control': 'no-store',
    });
    res.end(SIGN_IN_PAGE);
    return true;
  }
  if (path === '/demo/sign-in' && req.method === 'POST') {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      body = (body + chunk).slice(0, 1024);
    });
    req.on('end', () => {
      const person = PEOPLE.find((p) => p.id === new URLSearchParams(body).get('person'));
      if (person === undefined) {
        res.writeHead(400, { 'content-type': 'text/plain' }).end('Pick one of the people on the page.');
        return;
      }
      res.writeHead(303, {
        location: '/',
        'set-cookie': `demo-person=${person.id}; Path=/; HttpOnly; SameSite=Strict`,
      });
      res.end();
    });
    return true;
  }
  // Nobody signed in on a page address: off to the picker (the API still answers its own 401). An
  // approval link's page needs no sign-in: the link is the approver's credential.
  const isPage =
    req.method === 'GET' &&
    !path.startsWith('/api/') &&
    !path.startsWith('/assets/') &&
    !path.startsWith('/link/');
  if (isPage && personFrom(req.headers.cookie) === undefined) {
    res.writeHead(303, { location: '/demo/sign-in' }).end();
    return true;
  }
  return false;
}

const server = createServer((req, res) => {
  if (!demoPage(req, res)) consoleListener?.(req, res);
});

// The scripted agent: a reply to a customer every few seconds, waiting for a person to confirm it.
const REPLIES = [
  {
    conversationId: 'c-1001',
    text: 'We refunded the duplicate charge on your March invoice; it shows within 5 days.',
  },
  { conversationId: 'c-1002', text: 'Settings → Data → Export makes a ZIP file with all your data.' },
  { conversationId: 'c-1001', text: 'Your invoice address is now updated; the next invoice will show it.' },
  { conversationId: 'c-1002', text: 'The export link in your email stays valid for 7 days.' },
];
let asked = 0;
const askOnce = async () => {
  const pending = await registry.confirmations.list({ status: 'pending', limit: 20 });
  if (pending.ok && pending.confirmations.length >= 12) return; // enough waiting: let people catch up
  const reply = REPLIES[asked++ % REPLIES.length];
  // The agent proposes: it never holds the send; a person in the console decides.
  const result = await registry.propose('message.send', reply, {
    scope: 'desk',
    actor: 'agent-ana',
    note: `The customer in ${reply?.conversationId} asked about this; the reply answers from the help center.`,
    links: [
      {
        label: `Conversation ${reply?.conversationId}`,
        url: `https://desk.example/c/${reply?.conversationId}`,
      },
    ],
    ref: reply?.conversationId,
  });
  if (result.ok) {
    console.log(`  asked     ${result.confirmationId.slice(0, 8)}…  "${reply?.text}"`);
    // What an approval email would carry: Wu's personal link, working once, for ten minutes.
    const link = await approvals?.createApprovalLink(result.confirmationId, {
      approver: PEOPLE[1] as ConsolePerson,
      ttlMs: 10 * 60_000,
    });
    if (link?.ok) console.log(`            Wu's one-time link (no sign-in): ${link.url}`);
  } else if (!result.ok) console.log(`  ask failed: ${result.code}`);
};
const agent = setInterval(() => void askOnce(), intervalMs);

server.listen(port, '127.0.0.1', () => {
  const { port: actual } = server.address() as AddressInfo;
  openConsole(`http://127.0.0.1:${actual}`);
  console.log(`Approvals console: http://127.0.0.1:${actual}/  (demo sign-in; Ctrl-C stops)`);
  console.log(`Confirmations are stored in ${dbPath}. The agent asks every ${intervalMs / 1000} s.`);
  void askOnce();
});

let stopping = false;
const stop = () => {
  if (stopping) return;
  stopping = true;
  clearInterval(agent);
  approvals?.close();
  server.closeAllConnections();
  server.close(() => {
    store.close();
    console.log(`Stopped. Messages sent: ${data.outbox.length}.`);
  });
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);

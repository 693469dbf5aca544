// The approvals console behind a real sign-in: Express with express-session (a signed session cookie,
// sessions kept server-side), a login form that checks a password, and the console's `authenticate`
// reading the person from that session — never from anything the request itself claims.
//
//   npx tsx examples/console-session-auth.ts      then open http://127.0.0.1:3000/login (li / li-password)
//
// Environment: PORT (default 3000; 0 picks a free one), SESSION_SECRET (required when
// NODE_ENV=production), PUBLIC_URL and TRUST_PROXY=1 behind a TLS proxy (see the README's "Deploying").
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomBytes, scryptSync, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import express from 'express';
import session from 'express-session';
import type { ToolRegistry } from 'graded-tools';
import {
  type ApprovalsConsole,
  type ConsolePerson,
  createApprovalsConsole,
  toNodeListener,
} from 'graded-tools/console';
import { createSupportDeskRegistry } from './support-desk-registry.js';

declare module 'express-session' {
  interface SessionData {
    /** Set only by a successful login; everything else in the session is express-session's. */
    personId: string;
  }
}

/** Stand-in for your user database: each person with a scrypt hash of their password. */
interface DeskUser {
  readonly person: ConsolePerson;
  readonly salt: Buffer;
  readonly hash: Buffer;
}

function demoUser(person: ConsolePerson, password: string): DeskUser {
  const salt = randomBytes(16);
  return { person, salt, hash: scryptSync(password, salt, 32) };
}

const USERS = new Map<string, DeskUser>([
  [
    'li',
    demoUser({ id: 'lead-li', name: 'Li (desk lead)', scope: 'desk', flags: { kb: true } }, 'li-password'),
  ],
  [
    'wu',
    demoUser({ id: 'lead-wu', name: 'Wu (desk lead)', scope: 'desk', flags: { kb: true } }, 'wu-password'),
  ],
]);
const PEOPLE = new Map([...USERS.values()].map((user) => [user.person.id, user.person]));

function checkPassword(login: unknown, password: unknown): ConsolePerson | undefined {
  const user = typeof login === 'string' ? USERS.get(login) : undefined;
  if (user === undefined || typeof password !== 'string') return undefined;
  return timingSafeEqual(scryptSync(password, user.salt, 32), user.hash) ? user.person : undefined;
}

/** How the desk app is set up. */
export interface DeskAppOptions {
  readonly registry: ToolRegistry;
  /** Signs the session cookie: a long random secret from your secret store. */
  readonly sessionSecret: string;
  /** Behind a TLS proxy: where people reach the app, e.g. 'https://desk.example'. */
  readonly publicUrl?: string;
  /** Behind a TLS proxy that sets X-Forwarded-Proto and X-Forwarded-Host (and only then). */
  readonly trustProxy?: boolean;
}

/** The desk app: /login, /logout, and the approvals console under /approvals for signed-in people. */
export function createDeskApp(options: DeskAppOptions): {
  app: express.Express;
  approvals: ApprovalsConsole;
} {
  // The person of the request being answered: the console's `authenticate` runs inside it.
  const signedIn = new AsyncLocalStorage<ConsolePerson | undefined>();
  const approvals = createApprovalsConsole({
    registry: options.registry,
    basePath: '/approvals',
    authenticate: () => signedIn.getStore(),
    ...(options.publicUrl === undefined ? {} : { publicUrl: options.publicUrl }), // a bare origin gains /approvals
  });
  const consoleListener = toNodeListener(approvals, { trustProxy: options.trustProxy === true });

  const app = express();
  // The proxy's X-Forwarded-Proto tells express-session the cookie may be sent (it is `secure` then).
  if (options.trustProxy === true) app.set('trust proxy', 'loopback');
  app.use(
    session({
      name: 'desk.sid',
      secret: options.sessionSecret,
      resave: false,
      saveUninitialized: false,
      // A real app keeps sessions in a shared store (connect-pg-simple, connect-redis …), not in memory.
      cookie: { httpOnly: true, sameSite: 'lax', secure: options.trustProxy === true, maxAge: 8 * 3_600_000 },
    }),
  );

  app.get('/', (req, res) =>
    res.redirect(303, req.session.personId === undefined ? '/login' : '/approvals/'),
  );
  app.get('/login', (_req, res) => {
    res.set('content-security-policy', "default-src 'none'; form-action 'self'; frame-ancestors 'none'");
    res.type('html').send(LOGIN_PAGE);
  });
  app.post('/login', express.urlencoded({ extended: false, limit: '2kb' }), (req, res, next) => {
    const person = checkPassword(req.body?.login, req.body?.password);
    if (person === undefined) {
      res.status(401).type('text').send('Wrong login or password.');
      return;
    }
    // A new session id at login, so an id planted before it (session fixation) is worth nothing.
    req.session.regenerate((error) => {
      if (error) return next(error);
      req.session.personId = person.id;
      req.session.save((saved) => (saved ? next(saved) : res.redirect(303, '/approvals/')));
    });
  });
  app.post('/logout', (req, res, next) => {
    req.session.destroy((error) =>
      error ? next(error) : res.clearCookie('desk.sid').redirect(303, '/login'),
    );
  });

  // Mounted without a body parser: the console reads its own JSON. The person comes from the session
  // express-session verified (its signature, its expiry), looked up again on every request.
  app.use('/approvals', (req, res) => {
    const id = req.session.personId;
    signedIn.run(id === undefined ? undefined : PEOPLE.get(id), () => consoleListener(req, res));
  });
  return { app, approvals };
}

const LOGIN_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>Sign in to the desk</title></head>
<body><main><h1>Sign in</h1>
<form method="post" action="/login">
<p><label>Login <input name="login" autocomplete="username" required></label></p>
<p><label>Password <input name="password" type="password" autocomplete="current-password" required></label></p>
<p><button>Sign in</button></p>
</form></main></body></html>`;

// Run directly: the support desk with one reply waiting for a person, on PORT.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const secret = process.env.SESSION_SECRET;
  if (secret === undefined && process.env.NODE_ENV === 'production') {
    console.error('Set SESSION_SECRET: a long random secret that signs the session cookie.');
    process.exit(1);
  }
  const registry = createSupportDeskRegistry();
  const { app, approvals } = createDeskApp({
    registry,
    sessionSecret: secret ?? randomBytes(32).toString('hex'),
    ...(process.env.PUBLIC_URL === undefined ? {} : { publicUrl: process.env.PUBLIC_URL }),
    trustProxy: process.env.TRUST_PROXY === '1',
  });
  const asked = await registry.propose(
    'message.send',
    { conversationId: 'c-1002', text: 'Settings → Data → Export makes a ZIP file with all your data.' },
    { actor: 'agent:desk-bot', scope: 'desk', note: 'The customer asked how to export their data.' },
  );
  if (!asked.ok) console.log(`propose failed: ${asked.code}`);
  const server = createServer(app).listen(Number(process.env.PORT ?? 3000), '127.0.0.1', () => {
    const { port } = server.address() as AddressInfo;
    console.log(`Desk: http://127.0.0.1:${port}/login  (li / li-password, wu / wu-password; Ctrl-C stops)`);
  });
  const stop = () => {
    approvals.close(); // ends the console's live-update streams and its sweeps
    server.closeAllConnections();
    server.close();
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

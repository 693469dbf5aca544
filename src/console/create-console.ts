import { type Sweeping, startSweeping } from '../confirm/sweeps/background-sweeps.js';
import { type Locale, toLocale } from '../messages/index.js';
import type { ToolRegistry } from '../registry.js';
import { isRecord } from '../util/is-record.js';
import type { ConsoleSettings, PersonRequest } from './console-request.js';
import { personCards } from './console-request.js';
import { EventStreams } from './events-stream.js';
import { refusal } from './json-response.js';
import { createLink, LINK_HEADER, type LinkRequest } from './link-requests.js';
import { requestLocale } from './locale.js';
import { authenticatePerson } from './person.js';
import {
  type HostRule,
  hostRefusal,
  LOOPBACK_RULE,
  ownOrigin,
  readAllowedHosts,
  readJsonObject,
  stateChangeRefusal,
} from './request-guard.js';
import {
  type ConsoleRoute,
  consoleRoutes,
  matchRoute,
  normaliseBasePath,
  type RequestBody,
} from './routes.js';
import { withSecurityHeaders } from './security-headers.js';
import { signInResponse } from './shell.js';
import type { ApprovalLinkOptions, ApprovalsConsole, ApprovalsConsoleOptions } from './types.js';

/**
 * The approvals console: a page where a signed-in person sees every pending `send` exactly as it will
 * go out, and confirms or rejects it. A Fetch-API handler to mount in any server (Hono, Next.js, Bun,
 * Deno; `toNodeListener` for node:http and Express). There are no built-in users: `authenticate`
 * (required, or this throws a `TypeError`) says who the person is from your session, and that person
 * is always the approver. `authorize` may deny any action; a throw denies. Every POST must be JSON from
 * the console's own origin (a DELETE too); every response carries a strict Content-Security-Policy and `no-store`.
 * The handler never rejects: a failure inside answers a JSON 500 `CONSOLE_FAILED`.
 *
 * Each card says what confirming does (the tool's `effect`, filled from the payload), why and who
 * (`propose`'s `note` and `links`, the people by `displayName`), and the payload's fields under their
 * labels: a property's `title` in the tool's `payloadSchema`, or per language
 * `"x-title": { "zh-CN": "收件人" }` (else the key). Only the buttons `confirmations.canDecide` allows
 * are offered, and an edit is confirmed only as previewed. A send held for its undo window (`holdMs`)
 * shows "Sending in 0:24 — Undo" to whoever may cancel it, and a confirm of one answers 202 `SCHEDULED`.
 *
 * @example
 * ```ts
 * import { ToolRegistry } from 'graded-tools';
 * import { createApprovalsConsole } from 'graded-tools/console';
 *
 * const registry = new ToolRegistry();
 * const approvals = createApprovalsConsole({
 *   registry,
 *   basePath: '/approvals',
 *   // Your session → the person, or undefined when nobody is signed in (401).
 *   authenticate: (request) =>
 *     request.headers.get('cookie')?.includes('session=li') ? { id: 'lead-li', name: 'Li' } : undefined,
 *   authorize: (person, action, confirmation) => action === 'view' || confirmation.actor !== person.id,
 * });
 * const response = await approvals.fetch(new Request('http://127.0.0.1:3000/approvals/api/session'));
 * response.status; // 401: no session cookie
 * approvals.close();
 * ```
 */
export function createApprovalsConsole<AppContext = unknown>(
  options: ApprovalsConsoleOptions<AppContext>,
): ApprovalsConsole {
  const app = new ConsoleApp(readSettings(options));
  return Object.freeze({
    fetch: (request: Request) => app.fetch(request),
    createApprovalLink: (id: string, linkOptions: ApprovalLinkOptions) => app.createLink(id, linkOptions),
    close: () => app.close(),
  });
}

/** One console: the request lifecycle, top to bottom, and its steps. */
class ConsoleApp {
  readonly #s: ConsoleSettings;
  readonly #streams = new EventStreams();

  readonly #routes = consoleRoutes(this.#streams);
  #sweeps: Sweeping | undefined;
  #closed = false;

  constructor(settings: ConsoleSettings) {
    this.#s = settings;
  }

  /** Answers one request with the security headers set; whatever fails inside is a bare JSON 500. */
  async fetch(request: Request): Promise<Response> {
    // The housekeeping a person relies on (overdue sends expire, reminders go out), started by the
    // first request: a Worker makes its console at module scope, where workerd allows no timer.
    if (this.#sweeps === undefined && !this.#closed)
      this.#sweeps = startSweeping(this.#s.registry, {
        intervalMs: typeof this.#s.registry.sweep === 'function' ? this.#s.sweepIntervalMs : 0,
        staleAfterMs: this.#s.staleAfterMs,
      });
    let response: Response;
    try {
      response = await this.#answer(request);
    } catch {
      response = refusal(500, 'CONSOLE_FAILED', this.#localeOf(request));
    }
    return withSecurityHeaders(response);
  }

  createLink(id: string, options: ApprovalLinkOptions) {
    return createLink(this.#s, id, options);
  }

  close(): void {
    this.#closed = true;
    this.#sweeps?.stop();
    this.#streams.close();
  }

  /**
   * 1. route (404/405) → 2. the page's assets and an approval link's page, public (they hold nothing)
   * → 3. a POST's origin and content type → 4. who is asking: an approval link's token, which opens its
   * one confirmation only, or else the session (401) → 5. a POST's JSON body → 6. the route's handler.
   */
  async #answer(request: Request): Promise<Response> {
    const url = new URL(request.url);
    const locale = this.#localeOf(request);
    const foreign = hostRefusal(url, this.#s.hostRule);
    if (foreign !== undefined) return refusal(foreign.status, foreign.code, locale);
    const match = matchRoute(this.#routes, request.method, url.pathname, this.#s.base);
    if (!match.ok) {
      return match.status === 404
        ? refusal(404, 'NOT_FOUND', locale)
        : refusal(405, 'METHOD_NOT_ALLOWED', locale, { allow: match.allow });
    }
    const { route, id } = match;
    if (route.who === 'anyone') return route.answer(this.#s, locale);
    if (route.method !== 'GET') {
      const refused = stateChangeRefusal(request, ownOrigin(url, this.#s.hostRule));
      if (refused !== undefined) return refusal(refused.status, refused.code, locale);
    }
    const token = request.headers.get(LINK_HEADER);
    if (token !== null) {
      const { byLink } = route;
      if (byLink === undefined) return refusal(403, 'FORBIDDEN', locale);
      const link: LinkRequest = { settings: this.#s, request, token, locale };
      return withBody(route, request, locale, (body) => byLink(link, id, body));
    }
    const who = await authenticatePerson(this.#s.authenticate, request);
    if (!who.ok) {
      if (who.reason === 'malformed') return refusal(500, 'CONSOLE_FAILED', locale);
      return route.page ? signInResponse(this.#s.base, locale) : refusal(401, 'UNAUTHENTICATED', locale);
    }
    const ctx: PersonRequest = {
      settings: this.#s,
      request,
      url,
      person: who.person,
      locale,
      cards: personCards(this.#s, who.person, locale),
    };
    return withBody(route, request, locale, (body) => route.answer(ctx, id, body));
  }

  /** The language to answer in; never throws (it also words the last-resort 500). */
  #localeOf(request: Request): Locale {
    try {
      return requestLocale(this.#s.locale, request);
    } catch {
      return this.#s.locale ?? 'en';
    }
  }
}

const NO_BODY: RequestBody = Object.freeze({});

/** A GET's handler answers at once; a POST's or DELETE's only once its body is read as a JSON object. */
async function withBody(
  route: ConsoleRoute,
  request: Request,
  locale: Locale,
  answer: (body: RequestBody) => Response | Promise<Response>,
): Promise<Response> {
  if (route.method === 'GET') return answer(NO_BODY);
  const body = await readJsonObject(request);
  return body.ok ? answer(body.body) : refusal(body.status, body.code, locale);
}

/** The options, checked once: a wrong one throws now, at startup, never on a request. */
function readSettings(options: unknown): ConsoleSettings {
  const fail = (what: string) => new TypeError(`createApprovalsConsole: ${what}`);
  if (!isRecord(options)) throw fail('pass an options object ({ registry, authenticate, … })');
  const {
    registry,
    authenticate,
    authorize,
    basePath,
    locale,
    sweepIntervalMs,
    publicUrl,
    staleAfterMs,
    allowedHosts,
    displayName,
  } = options;
  if (typeof authenticate !== 'function') {
    throw fail(
      '`authenticate` is required: the console has no built-in users. Pass `(request) => person | undefined`, reading your own session.',
    );
  }
  if (!isRegistryLike(registry)) throw fail('`registry` must be a ToolRegistry');
  if (authorize !== undefined && typeof authorize !== 'function')
    throw fail('`authorize` must be a function `(person, action, confirmation) => boolean`');
  const base = normaliseBasePath(basePath);
  if (base === undefined) throw fail('`basePath` must be an absolute path like "/approvals"');
  if (locale !== undefined && toLocale(locale, 'en') !== locale)
    throw fail("`locale` must be 'en' or 'zh-CN'");
  const interval = sweepIntervalMs ?? 60_000;
  if (typeof interval !== 'number' || !Number.isInteger(interval) || interval < 0 || interval > 2_147_483_647)
    throw fail('`sweepIntervalMs` must be a whole number of milliseconds (0: the app sweeps itself)');
  if (
    staleAfterMs !== undefined &&
    (typeof staleAfterMs !== 'number' || !Number.isInteger(staleAfterMs) || staleAfterMs < 0)
  )
    throw fail('`staleAfterMs` must be a whole number of milliseconds');
  if (displayName !== undefined && typeof displayName !== 'function')
    throw fail('`displayName` must be a function `(personId) => string | undefined`');
  const publicBase = readPublicUrl(publicUrl, base);
  if (publicBase === null)
    throw fail(
      '`publicUrl` must be an absolute http(s) URL without a query or fragment, like "https://desk.example/approvals"',
    );
  const hosts = readAllowedHosts(allowedHosts);
  if (hosts === null)
    throw fail("`allowedHosts` must be 'any' or a list of hostnames without a port, like ['desk.internal']");
  if (hosts !== undefined && publicBase !== undefined)
    throw fail(
      'give `publicUrl` or `allowedHosts`, not both: with publicUrl the console answers on its host only',
    );
  const hostRule: HostRule =
    publicBase !== undefined
      ? { publicOrigin: new URL(publicBase).origin, publicHost: new URL(publicBase).host }
      : hosts === undefined
        ? LOOPBACK_RULE
        : { allowedHosts: hosts };
  return Object.freeze({
    hostRule,
    publicUrl: publicBase,
    registry,
    authenticate: authenticate as ConsoleSettings['authenticate'],
    authorize: authorize as ConsoleSettings['authorize'],
    base,
    locale: locale as Locale | undefined,
    sweepIntervalMs: interval,
    staleAfterMs: staleAfterMs as number | undefined,
    displayName: displayName as ConsoleSettings['displayName'],
  });
}

/**
 * `publicUrl` without a trailing `/` — a bare origin gains the base path, so both
 * `https://desk.example` and `https://desk.example/approvals` mean the same console at `/approvals` —
 * or `undefined` when not given, `null` when it is not usable.
 */
function readPublicUrl(value: unknown, base: string): string | undefined | null {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !URL.canParse(value)) return null;
  const url = new URL(value);
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.search !== '' || url.hash !== '')
    return null;
  if (value.includes('?') || value.includes('#') || url.username !== '' || url.password !== '') return null;
  const href = url.href.replace(/\/+$/, '');
  return url.pathname === '/' ? `${href}${base}` : href;
}

function isRegistryLike(value: unknown): value is ToolRegistry<unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const registry = value as Partial<Record<string, unknown>>;
  return (
    typeof registry.confirm === 'function' &&
    typeof registry.reject === 'function' &&
    typeof registry.confirmations === 'object' &&
    registry.confirmations !== null
  );
}

import type { Locale } from '../messages/index.js';
import { decideMany } from './bulk-decisions.js';
import { bundleDecision } from './bundle-decisions.js';
import type { ConsoleSettings, PersonRequest, RequestBody } from './console-request.js';
import { askFromBody } from './decision-bodies.js';
import { type DecisionAsk, decide } from './decisions.js';
import type { EventStreams } from './events-stream.js';
import { getResponse, listResponse, previewResponse, sessionResponse } from './json-api.js';
import { jsonResponse, refusal } from './json-response.js';
import { decideByLink, type LinkRequest, openByLink } from './link-requests.js';
import { consoleOpenApi } from './openapi.js';
import { PAGE_SCRIPT, PAGE_STYLE } from './page-assets.generated.js';
import {
  passkeyChallengeResponse,
  passkeyListResponse,
  passkeyOptionsResponse,
  passkeyRegisterResponse,
  passkeyRemoveResponse,
} from './passkey-requests.js';
import { shellResponse } from './shell.js';

export type { RequestBody } from './console-request.js';

interface RouteBase {
  readonly method: 'GET' | 'POST' | 'DELETE';
  /** The path under the base path; `:id` is a confirmation's (a bundle's, a passkey's) id, decoded. */
  readonly path: string;
}

/** A route anyone may ask, signed in or not: it holds nothing (the page's assets, a link's page). */
export interface OpenRoute extends RouteBase {
  readonly who: 'anyone';
  readonly answer: (settings: ConsoleSettings, locale: Locale) => Response;
}

/** A route for the signed-in person, and what an approval link's token may ask there (else 403). */
export interface PersonRoute extends RouteBase {
  readonly who: 'person';
  /** A page: signed out, it answers the sign-in page rather than a JSON 401. */
  readonly page?: true;
  readonly answer: (ctx: PersonRequest, id: string, body: RequestBody) => Response | Promise<Response>;
  readonly byLink?: (link: LinkRequest, id: string, body: RequestBody) => Promise<Response>;
}

export type ConsoleRoute = OpenRoute | PersonRoute;

/**
 * The console's routes, top to bottom; the first whose path and method match answers. `open`: anyone
 * (it holds nothing); `page`: the signed-in person's page (signed out: the sign-in page); `get`,
 * `post` and `remove` (DELETE): the person's JSON API, and a third handler for an approval link's token
 * (elsewhere: 403).
 */
export function consoleRoutes(streams: EventStreams): readonly ConsoleRoute[] {
  return [
    open('/assets/console.js', () => asset(PAGE_SCRIPT, JS)),
    open('/assets/console.css', () => asset(PAGE_STYLE, CSS)),
    open('/link/:id', (settings, locale) => shellResponse(settings.base, locale, '', 'link')),
    // Public: the same for every console, and nothing of the app's in it (the docs show it too).
    open('/api/openapi.json', (settings) =>
      jsonResponse(200, consoleOpenApi(settings.publicUrl ?? settings.base)),
    ),
    page('/'),
    page('/confirmations/:id'),
    page('/passkeys'),
    get('/api/session', sessionResponse),
    get('/api/confirmations', listResponse),
    get('/api/confirmations/:id', getResponse, openByLink),
    post('/api/confirmations/:id/confirm', decision('confirm'), decideByLink('confirm')),
    post('/api/confirmations/:id/reject', decision('reject'), decideByLink('reject')),
    post('/api/confirmations/:id/retry', decision('retry')),
    post('/api/confirmations/:id/mark-delivered', decision('markDelivered')),
    post('/api/confirmations/:id/cancel', decision('cancel')),
    post('/api/confirmations/:id/preview', previewResponse),
    post('/api/confirmations/:id/passkey-challenge', passkeyChallengeResponse('confirmation')),
    post('/api/bundles/:id/confirm', bundleDecision('confirm')),
    post('/api/bundles/:id/reject', bundleDecision('reject')),
    post('/api/confirm-many', many('confirm')),
    post('/api/bundles/:id/passkey-challenge', passkeyChallengeResponse('bundle')),
    post('/api/reject-many', many('reject')),
    // The signed-in person's own passkeys: the person is the session's, never the body's.
    get('/api/passkeys', passkeyListResponse),
    post('/api/passkeys/options', passkeyOptionsResponse),
    post('/api/passkeys', passkeyRegisterResponse),
    remove('/api/passkeys/:id', passkeyRemoveResponse),
    get('/api/events', (ctx) => streams.open(ctx)),
  ];
}

const open = (path: string, answer: OpenRoute['answer']): OpenRoute => ({
  method: 'GET',
  path,
  who: 'anyone',
  answer,
});
// Every page address serves the one shell; the page's script reads the address.
const page = (path: string): PersonRoute => ({
  method: 'GET',
  path,
  who: 'person',
  page: true,
  answer: (ctx) => shellResponse(ctx.settings.base, ctx.locale, ctx.person.id),
});
const person =
  (method: 'GET' | 'POST' | 'DELETE') =>
  (path: string, answer: PersonRoute['answer'], byLink?: PersonRoute['byLink']): PersonRoute => ({
    method,
    path,
    who: 'person',
    answer,
    ...(byLink === undefined ? {} : { byLink }),
  });
const get = person('GET');
const post = person('POST');
const remove = person('DELETE');

const JS = 'text/javascript; charset=utf-8';
const CSS = 'text/css; charset=utf-8';

function asset(text: string, type: string): Response {
  return new Response(text, { status: 200, headers: { 'content-type': type } });
}

/** `POST api/confirmations/<id>/<kind>`: the body read as that decision, then decided. */
function decision(kind: DecisionAsk['kind']): PersonRoute['answer'] {
  return async (ctx, id, body) => {
    const ask = askFromBody(kind, body);
    if (ask === undefined) return refusal(400, 'BAD_REQUEST', ctx.locale);
    const { status, decision } = await decide(ctx, id, ask);
    return jsonResponse(status, decision);
  };
}

/** `POST api/confirm-many` and `api/reject-many`: one result per item. */
function many(kind: 'confirm' | 'reject'): PersonRoute['answer'] {
  return async (ctx, _id, body) => {
    const outcome = await decideMany(ctx, kind, body);
    return outcome === undefined ? refusal(400, 'BAD_REQUEST', ctx.locale) : jsonResponse(200, outcome);
  };
}

export type RouteMatch<R> =
  | { readonly ok: true; readonly route: R; readonly id: string }
  | { readonly ok: false; readonly status: 404 }
  | { readonly ok: false; readonly status: 405; readonly allow: string };

/**
 * The first of `routes` for `method` and `pathname` under `base` (normalised: `''` or `/approvals`),
 * with the id in its path (`''` when it has none): a 404 for a path the console does not serve, a 405
 * (with `Allow`) for one it serves under another method.
 */
export function matchRoute<R extends RouteBase>(
  routes: readonly R[],
  method: string,
  pathname: string,
  base: string,
): RouteMatch<R> {
  const rest = pathUnder(pathname, base);
  if (rest === undefined) return { ok: false, status: 404 };
  const segments = rest.slice(1).split('/');
  const allowed: string[] = [];
  for (const route of routes) {
    const id = idIn(route.path, segments);
    if (id === undefined) continue;
    if (route.method === method) return { ok: true, route, id };
    allowed.push(route.method);
  }
  return allowed.length === 0
    ? { ok: false, status: 404 }
    : { ok: false, status: 405, allow: allowed.join(', ') };
}

/** The path below `base` (always starting with `/`), or `undefined` when it is not under it. */
function pathUnder(pathname: string, base: string): string | undefined {
  if (pathname === base) return '/';
  if (!pathname.startsWith(`${base}/`)) return undefined;
  return pathname.slice(base.length);
}

/** The `:id` of `path` in `segments` (`''` when it has none), or `undefined` when they differ. */
function idIn(path: string, segments: readonly string[]): string | undefined {
  const pattern = path.slice(1).split('/');
  if (pattern.length !== segments.length) return undefined;
  let id = '';
  for (const [i, want] of pattern.entries()) {
    const segment = segments[i] ?? '';
    if (want === ':id' && segment !== '') id = idOf(segment);
    else if (want !== segment) return undefined;
  }
  return id;
}

/** A path segment decoded; one that does not decode is passed on as it is (no id has that shape). */
function idOf(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * `basePath` normalised: `''` for `'/'`, `'/approvals'` for `'/approvals/'` or `'/approvals'`; or
 * `undefined` when it is not a plain absolute path.
 */
export function normaliseBasePath(basePath: unknown): string | undefined {
  if (basePath === undefined) return '';
  if (typeof basePath !== 'string' || !/^(\/[A-Za-z0-9._~-]+)*\/?$/.test(basePath)) return undefined;
  const base = basePath.replace(/\/$/, '');
  return base.split('/').some((segment) => segment === '.' || segment === '..') ? undefined : base;
}

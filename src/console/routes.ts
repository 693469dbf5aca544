/** What a request under the console's base path asks for. */
export type RouteName =
  | 'inbox'
  | 'detail'
  | 'linkPage'
  | 'script'
  | 'style'
  | 'session'
  | 'list'
  | 'get'
  | 'confirm'
  | 'reject'
  | 'retry'
  | 'markDelivered'
  | 'cancel'
  | 'preview'
  | 'confirmMany'
  | 'rejectMany'
  | 'events';

/** A matched route: its name, and the confirmation id in its path when it has one. */
export interface Route {
  readonly name: RouteName;
  readonly method: 'GET' | 'POST';
  readonly id?: string;
}

export type RouteMatch =
  | { readonly ok: true; readonly route: Route }
  | { readonly ok: false; readonly status: 404 }
  | { readonly ok: false; readonly status: 405; readonly allow: string };

const FIXED: Readonly<Record<string, Omit<Route, 'id'>>> = {
  '/': { name: 'inbox', method: 'GET' },
  '/assets/console.js': { name: 'script', method: 'GET' },
  '/assets/console.css': { name: 'style', method: 'GET' },
  '/api/session': { name: 'session', method: 'GET' },
  '/api/confirmations': { name: 'list', method: 'GET' },
  '/api/confirm-many': { name: 'confirmMany', method: 'POST' },
  '/api/reject-many': { name: 'rejectMany', method: 'POST' },
  '/api/events': { name: 'events', method: 'GET' },
};

const DECISIONS: Readonly<Record<string, RouteName>> = {
  confirm: 'confirm',
  reject: 'reject',
  retry: 'retry',
  'mark-delivered': 'markDelivered',
  cancel: 'cancel',
  preview: 'preview',
};

const DETAIL = /^\/confirmations\/([^/]+)$/;
const LINK_PAGE = /^\/link\/([^/]+)$/;
const ONE = /^\/api\/confirmations\/([^/]+)$/;
const DECISION = /^\/api\/confirmations\/([^/]+)\/([a-z-]+)$/;

/**
 * The route for `method` and `pathname` under `base` (normalised: `''` or `/approvals`): a 404 for a
 * path the console does not serve, a 405 (with `Allow`) for one it serves under another method.
 */
export function matchRoute(method: string, pathname: string, base: string): RouteMatch {
  const rest = pathUnder(pathname, base);
  if (rest === undefined) return { ok: false, status: 404 };
  const found = routeFor(rest);
  if (found === undefined) return { ok: false, status: 404 };
  if (found.method !== method) return { ok: false, status: 405, allow: found.method };
  return { ok: true, route: found };
}

/** The path below `base` (always starting with `/`), or `undefined` when it is not under it. */
function pathUnder(pathname: string, base: string): string | undefined {
  if (pathname === base) return '/';
  if (!pathname.startsWith(`${base}/`)) return undefined;
  return pathname.slice(base.length);
}

function routeFor(rest: string): Route | undefined {
  const fixed = FIXED[rest];
  if (fixed !== undefined && Object.hasOwn(FIXED, rest)) return fixed;
  const detail = DETAIL.exec(rest);
  if (detail !== null) return { name: 'detail', method: 'GET', id: idOf(detail[1]) };
  const linkPage = LINK_PAGE.exec(rest);
  if (linkPage !== null) return { name: 'linkPage', method: 'GET', id: idOf(linkPage[1]) };
  const one = ONE.exec(rest);
  if (one !== null) return { name: 'get', method: 'GET', id: idOf(one[1]) };
  const decision = DECISION.exec(rest);
  const action = decision?.[2];
  if (decision !== null && action !== undefined && Object.hasOwn(DECISIONS, action))
    return { name: DECISIONS[action] as RouteName, method: 'POST', id: idOf(decision[1]) };
  return undefined;
}

/** A path segment decoded; one that does not decode is passed on as it is (no id has that shape). */
function idOf(segment: string | undefined): string {
  try {
    return decodeURIComponent(segment ?? '');
  } catch {
    return segment ?? '';
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

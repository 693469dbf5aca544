import { hostnameOf, LOOPBACK_HOSTS } from '../adapters/mcp/host-check.js';
import { isRecord } from '../util/is-record.js';

/** The largest body a state-changing request may carry. */
export const MAX_BODY_BYTES = 256 * 1024;

/** Why a state-changing request is refused before anything reads its body. */
export type GuardRefusal =
  | { readonly status: 403; readonly code: 'FORBIDDEN_ORIGIN' | 'FORBIDDEN_HOST' }
  | { readonly status: 415; readonly code: 'UNSUPPORTED_MEDIA_TYPE' };

/** Which host the console answers on: publicUrl's, or any of `allowedHosts` (hostnames, any port). */
export type HostRule =
  | { readonly publicOrigin: string; readonly publicHost: string }
  | { readonly allowedHosts: readonly string[] | 'any' };

/** The rule when neither `publicUrl` nor `allowedHosts` is given: loopback names only. */
export const LOOPBACK_RULE: HostRule = { allowedHosts: LOOPBACK_HOSTS };

/**
 * Against DNS rebinding (a page whose own name now points at this server, so its `Host` and `Origin`
 * agree): the host `url` names must be the console's — publicUrl's host and port, or an allowed
 * hostname — before anything else is read. `url` is the request's own, built from its `Host`.
 */
export function hostRefusal(url: URL, rule: HostRule): GuardRefusal | undefined {
  const allowed =
    'publicOrigin' in rule
      ? url.host === rule.publicHost
      : rule.allowedHosts === 'any' || rule.allowedHosts.includes(hostnameOf(url.host, false) ?? '');
  return allowed ? undefined : { status: 403, code: 'FORBIDDEN_HOST' };
}

/** The origin a state-changing request must come from: publicUrl's, or else the request's own. */
export function ownOrigin(url: URL, rule: HostRule): string {
  return 'publicOrigin' in rule ? rule.publicOrigin : url.origin;
}

/**
 * `allowedHosts` as given: hostnames (no port, no path), lower-cased, or `'any'`; `undefined` when not
 * given, `null` when it is not usable.
 */
export function readAllowedHosts(value: unknown): readonly string[] | 'any' | undefined | null {
  if (value === undefined || value === 'any') return value;
  if (!Array.isArray(value)) return null;
  const hosts: string[] = [];
  for (const host of value) {
    if (typeof host !== 'string' || host === '') return null;
    const name = hostnameOf(host, false);
    if (name === undefined || new URL(`http://${host}`).port !== '' || host.endsWith(':')) return null;
    if (name !== host.toLowerCase()) return null;
    hosts.push(name);
  }
  return Object.freeze(hosts);
}

/**
 * Checks a state-changing request (every POST) against cross-site use, as hono's `csrf` middleware
 * does, but stricter: the browser's `Origin` must be the console's own origin, or — when a browser
 * sent none — `Sec-Fetch-Site` must say `same-origin`; a request with neither is refused too, so a
 * decision can only come from the console's own page. Then only JSON is accepted: a cross-site
 * `<form>` can send `text/plain` or form bodies without a preflight, never `application/json`.
 */
export function stateChangeRefusal(request: Request, ownOrigin: string): GuardRefusal | undefined {
  if (!isSameOrigin(request.headers, ownOrigin)) return { status: 403, code: 'FORBIDDEN_ORIGIN' };
  if (!isJsonContentType(request.headers.get('content-type')))
    return { status: 415, code: 'UNSUPPORTED_MEDIA_TYPE' };
  return undefined;
}

function isSameOrigin(headers: Headers, ownOrigin: string): boolean {
  const origin = headers.get('origin');
  // `null` (a sandboxed frame, a redirect across origins) is never the console's own origin.
  if (origin !== null) return origin === ownOrigin;
  return headers.get('sec-fetch-site') === 'same-origin';
}

/** True for `application/json`, with or without parameters (`; charset=utf-8`). */
export function isJsonContentType(value: string | null): boolean {
  if (value === null) return false;
  const [type = ''] = value.split(';');
  return type.trim().toLowerCase() === 'application/json';
}

/** A request body read as a JSON object, or why it cannot be. */
export type BodyOutcome =
  | { readonly ok: true; readonly body: Readonly<Record<string, unknown>> }
  | { readonly ok: false; readonly status: 400 | 413; readonly code: 'BAD_REQUEST' | 'PAYLOAD_TOO_LARGE' };

const TOO_LARGE = { ok: false, status: 413, code: 'PAYLOAD_TOO_LARGE' } as const;
const BAD = { ok: false, status: 400, code: 'BAD_REQUEST' } as const;

/**
 * Reads the body, stopping as soon as it passes `maxBytes` (a declared `Content-Length` over the limit
 * is refused unread), and parses it as a JSON object.
 */
export async function readJsonObject(request: Request, maxBytes = MAX_BODY_BYTES): Promise<BodyOutcome> {
  const declared = Number(request.headers.get('content-length') ?? Number.NaN);
  if (Number.isFinite(declared) && declared > maxBytes) return TOO_LARGE;
  if (request.body === null) return BAD;
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => {});
      return TOO_LARGE;
    }
    chunks.push(value);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(chunks)));
  } catch {
    return BAD;
  }
  return isRecord(parsed) ? { ok: true, body: parsed } : BAD;
}

// The console's JSON API, as the page calls it: same-origin, JSON bodies, never a thrown error — a
// network failure comes back as a failure result like any other.

import type { PasskeyAssertion, PasskeyRegistrationResponse } from '../../passkeys/passkey-types.js';
// Every answer's type is the server's own (type-only imports: nothing of the server is bundled).
import type { Card } from '../card-view.js';
import type {
  BulkOutcome,
  ConfirmationAnswer,
  Decision,
  Failure,
  ListPage,
  PasskeyAdded,
  PasskeyChallenge,
  PasskeyCreation,
  PasskeyList,
  PasskeyRemoved,
  Preview,
  SessionAnswer,
} from '../wire.js';

export type { Card, Quorum } from '../card-view.js';
export type { Offer } from '../offer.js';
export type { Decision, Failure, ListPage, PasskeyListed, Preview } from '../wire.js';

/** One step of a card's history. */
export type HistoryEntry = Card['history'][number];

/** The page's view of the server: one method per endpoint. */
export interface Api {
  list(query: {
    status?: string;
    tool?: string;
    cursor?: string;
    limit?: string;
  }): Promise<ListPage | Failure>;
  session(): Promise<SessionAnswer | Failure>;
  get(id: string): Promise<ConfirmationAnswer | Failure>;
  /**
   * With an edit: the edited payload and the digest its preview showed (`editDigest`); for a card that
   * needs a passkey, the person's assertion (`passkey`).
   */
  confirm(
    id: string,
    body: { digest: string; payload?: unknown; editDigest?: string; passkey?: PasskeyAssertion },
  ): Promise<Decision>;
  reject(id: string, reason: string): Promise<Decision>;
  retry(id: string, digest: string): Promise<Decision>;
  markDelivered(id: string, note: string): Promise<Decision>;
  /** Undo: takes back a send held in its undo window. */
  cancel(id: string): Promise<Decision>;
  preview(id: string, payload: unknown): Promise<Preview | Failure>;
  /** A bundle decided whole: every step the person may approve, bound to the bundle digest. */
  confirmBundle(bundleId: string, digest: string, passkey?: PasskeyAssertion): Promise<Decision>;
  /** The options of `navigator.credentials.get` for this person's approval of `digest`. */
  passkeyChallenge(
    kind: 'confirmation' | 'bundle',
    id: string,
    digest: string,
  ): Promise<PasskeyChallenge | Failure>;
  /** The person's own passkeys, and adding or removing one. */
  passkeys(): Promise<PasskeyList | Failure>;
  passkeyOptions(): Promise<PasskeyCreation | Failure>;
  addPasskey(response: PasskeyRegistrationResponse, label: string): Promise<PasskeyAdded | Failure>;
  removePasskey(credentialId: string): Promise<PasskeyRemoved | Failure>;
  rejectBundle(bundleId: string, reason: string): Promise<Decision>;
  confirmMany(items: { id: string; digest: string }[]): Promise<BulkOutcome | Failure>;
  rejectMany(ids: string[], reason: string): Promise<BulkOutcome | Failure>;
  /** Where the live-update stream is. */
  readonly eventsUrl: string;
}

/**
 * The API under `base` (the console's base path, '' at the root). With an approval link's `linkToken`,
 * every request carries it in a header instead of relying on a session.
 */
export function createApi(base: string, networkError: string, linkToken?: string): Api {
  const link: Record<string, string> = linkToken === undefined ? {} : { 'x-approval-link': linkToken };
  const call = async <T>(path: string, body?: object, method = 'POST'): Promise<T | Failure> => {
    try {
      const init: RequestInit = {
        credentials: 'same-origin',
        headers: { accept: 'application/json', ...link },
      };
      if (body !== undefined) {
        init.method = method;
        init.headers = { accept: 'application/json', 'content-type': 'application/json', ...link };
        init.body = JSON.stringify(body);
      }
      const response = await fetch(`${base}/api/${path}`, init);
      const json: unknown = await response.json();
      if (typeof json === 'object' && json !== null && 'ok' in json) return json as T | Failure;
      return { ok: false, code: `HTTP_${response.status}`, error: networkError };
    } catch {
      return { ok: false, code: 'NETWORK', error: networkError };
    }
  };
  const at = (id: string, action = '') => `confirmations/${encodeURIComponent(id)}${action}`;
  const withReason = (key: string, text: string) => (text.trim() ? { [key]: text.trim() } : {});
  return {
    list: ({ status, tool, cursor, limit }) => {
      const query = new URLSearchParams();
      if (limit) query.set('limit', limit);
      if (status) query.set('status', status);
      if (tool) query.set('tool', tool);
      if (cursor) query.set('cursor', cursor);
      const search = query.toString();
      return call(`confirmations${search ? `?${search}` : ''}`);
    },
    session: () => call('session'),
    get: (id) => call(at(id)),
    confirm: (id, body) => call(at(id, '/confirm'), body),
    reject: (id, reason) => call(at(id, '/reject'), withReason('reason', reason)),
    retry: (id, digest) => call(at(id, '/retry'), { digest }),
    markDelivered: (id, note) => call(at(id, '/mark-delivered'), withReason('note', note)),
    cancel: (id) => call(at(id, '/cancel'), {}),
    preview: (id, payload) => call(at(id, '/preview'), { payload }),
    confirmBundle: (id, digest, passkey) =>
      call(
        `bundles/${encodeURIComponent(id)}/confirm`,
        passkey === undefined ? { digest } : { digest, passkey },
      ),
    passkeyChallenge: (kind, id, digest) =>
      call(
        kind === 'bundle'
          ? `bundles/${encodeURIComponent(id)}/passkey-challenge`
          : at(id, '/passkey-challenge'),
        { digest },
      ),
    passkeys: () => call('passkeys'),
    passkeyOptions: () => call('passkeys/options', {}),
    addPasskey: (response, label) => call('passkeys', { response, ...withReason('label', label) }),
    removePasskey: (credentialId) => call(`passkeys/${encodeURIComponent(credentialId)}`, {}, 'DELETE'),
    rejectBundle: (id, reason) =>
      call(`bundles/${encodeURIComponent(id)}/reject`, withReason('reason', reason)),
    confirmMany: (items) => call('confirm-many', { items }),
    rejectMany: (ids, reason) =>
      call('reject-many', { items: ids.map((id) => ({ id })), ...withReason('reason', reason) }),
    eventsUrl: `${base}/api/events`,
  };
}

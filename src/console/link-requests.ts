import { type LinkFailure, readLinkApprover } from '../confirm/links/approval-links.js';
import type { Locale } from '../messages/index.js';
import { formatMessage } from '../messages/index.js';
import type { LinkApprover } from '../stores/store.js';
import { isAllowed } from './access.js';
import { consoleMessage, consoleWords } from './console-messages.js';
import type { ConsoleSettings, PersonRequest } from './console-request.js';
import { personCards } from './console-request.js';
import { askFromBody } from './decision-bodies.js';
import { decide } from './decisions.js';
import { jsonResponse, refusal } from './json-response.js';
import { failureBody } from './registry-failure.js';
import type { ApprovalLinkOptions, ApprovalLinkResult, ConsolePerson } from './types.js';
import type { ConfirmationAnswer } from './wire.js';

/** The header the console's page sends a link's token in (never a cookie: nothing ambient). */
export const LINK_HEADER = 'x-approval-link';

/**
 * `approvals.createApprovalLink`: asks `authorize` whether the approver may confirm it, then has the
 * registry issue the link, and puts the token in the URL's fragment (`#…`), which browsers never send
 * to a server: it stays out of access logs, proxies and `Referer`. Never rejects.
 */
export async function createLink(
  settings: ConsoleSettings,
  id: string,
  options: ApprovalLinkOptions,
): Promise<ApprovalLinkResult> {
  const locale = settings.locale ?? 'en';
  const invalid = (detail: string) =>
    ({
      ok: false,
      code: 'INVALID_OPTION',
      error: formatMessage('INVALID_OPTION', { detail }, locale),
    }) as const;
  try {
    if (settings.publicUrl === undefined)
      return invalid('approval links need the console created with `publicUrl` (where people open it)');
    const approver = readLinkApprover(options?.approver);
    if (typeof approver === 'string') return invalid(approver);
    const { registry } = settings;
    const found = await registry.confirmations.get(id, { locale });
    if (!found.ok) return withoutRecord(found);
    if (!(await isAllowed(settings.authorize, personOf(approver), 'confirm', found.confirmation)))
      return { ok: false, code: 'FORBIDDEN', error: consoleMessage('FORBIDDEN', locale) };
    const issued = await registry.approvalLinks.issue(id, { approver, ttlMs: options?.ttlMs, locale });
    if (!issued.ok) {
      // The registry's check list ran the gates with the flags and scope the link carries: say where they go.
      const gated = GATE_CODES.has(issued.code);
      return withoutRecord(
        gated ? { ...issued, error: `${issued.error} ${consoleWords(locale).linkGates}` } : issued,
      );
    }
    const url = `${settings.publicUrl}/link/${encodeURIComponent(id)}#${issued.token}`;
    return { ok: true, url, expiresAt: issued.expiresAt };
  } catch {
    return invalid('`options` could not be read');
  }
}

const GATE_CODES: ReadonlySet<string> = new Set(['FLAG_NOT_GRANTED', 'SCOPE_MISMATCH']);

/** A request carrying an approval link's token instead of a session. */
export interface LinkRequest {
  readonly settings: ConsoleSettings;
  readonly request: Request;
  readonly token: string;
  readonly locale: Locale;
}

/**
 * `GET api/confirmations/<id>` through a link: the link's approver is the person, and only its own
 * confirmation may be read — as a card with nothing editable (a link approves what it was made for).
 */
export async function openByLink(link: LinkRequest, id: string): Promise<Response> {
  const { settings, token, locale } = link;
  const opened = await settings.registry.approvalLinks.open(token, id, { locale });
  if (!opened.ok) return linkRefusal(opened, locale);
  const person = personOf(opened.approver);
  if (!(await isAllowed(settings.authorize, person, 'view', opened.confirmation)))
    return refusal(403, 'FORBIDDEN', locale);
  const cards = personCards(settings, person, locale, true);
  return jsonResponse(200, {
    ok: true,
    confirmation: { ...(await cards.card(opened.confirmation)), editable: [] },
    person: person.name === undefined ? { id: person.id } : { id: person.id, name: person.name },
    link: { expiresAt: opened.expiresAt },
    serverTime: new Date().toISOString(),
  } satisfies ConfirmationAnswer);
}

/**
 * `POST api/confirmations/<id>/confirm` or `reject` through a link: confirmed as shown (never edited)
 * or rejected. The decision goes to the registry with the token, checked in its one check list (the
 * link, `authorize`, the gates …) and spent by the claim itself, so a refused or failed ask never
 * spends it.
 */
export function decideByLink(
  kind: 'confirm' | 'reject',
): (link: LinkRequest, id: string, body: Readonly<Record<string, unknown>>) => Promise<Response> {
  return async ({ settings, request, token, locale }, id, body) => {
    const ask = askFromBody(kind, body);
    if (ask === undefined || (ask.kind === 'confirm' && ask.payload !== undefined))
      return refusal(400, 'BAD_REQUEST', locale);
    // The person is the link's approver; `decide` hands the token to the registry.
    const person: ConsolePerson = { id: '' };
    const cards = personCards(settings, person, locale, true);
    const ctx: PersonRequest = { settings, request, url: new URL(request.url), person, locale, cards };
    const { status, decision } = await decide(ctx, id, ask, token);
    return jsonResponse(status, decision);
  };
}

/**
 * A link that opens nothing: its code and words, never the confirmation (a spent or stray link shows
 * no payload). An unknown link is a 404, a used or expired one 410.
 */
function linkRefusal(failure: LinkFailure, locale: Locale): Response {
  const { status, code, error } = failureBody(failure, locale);
  const reason = failure.reason;
  return jsonResponse(reason === 'unknown' ? 404 : status, {
    ok: false,
    code,
    error,
    ...(reason === undefined ? {} : { reason }),
  });
}

function personOf(approver: LinkApprover): ConsolePerson {
  return approver;
}

function withoutRecord(failure: LinkFailure): ApprovalLinkResult {
  const { code, error, reason } = failure;
  return reason === undefined ? { ok: false, code, error } : { ok: false, code, error, reason };
}

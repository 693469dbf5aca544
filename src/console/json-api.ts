import type { ConfirmationStatus } from '../confirmation.js';
import type { ToolFailure } from '../result.js';
import { canonicalJson } from '../util/canonical-json.js';
import { isAllowed } from './access.js';
import type { PersonRequest } from './console-request.js';
import { jsonResponse, refusal } from './json-response.js';
import { failureBody } from './registry-failure.js';
import type { ConfirmationAnswer, ListPage, Preview, SessionAnswer } from './wire.js';

const serverTime = () => new Date().toISOString();

/** `GET api/session`: who is signed in, in which language, and the server's clock for countdowns. */
export function sessionResponse(ctx: PersonRequest): Response {
  const { id, name } = ctx.person;
  return jsonResponse(200, {
    ok: true,
    person: name === undefined ? { id } : { id, name },
    locale: ctx.locale,
    serverTime: serverTime(),
  } satisfies SessionAnswer);
}

const LIMIT = /^\d{1,4}$/;

/**
 * `GET api/confirmations?status=&tool=&cursor=&limit=`: one page, newest first, as cards, leaving
 * out those `authorize` does not let the person `view`; with the send tools to filter by (with
 * `authorize`, only those of the confirmations shown).
 */
export async function listResponse(ctx: PersonRequest): Promise<Response> {
  const { registry, authorize } = ctx.settings;
  const query = ctx.url.searchParams;
  const param = (name: string) => {
    const value = query.get(name);
    return value === null || value === '' ? undefined : value;
  };
  const limit = param('limit');
  if (limit !== undefined && !LIMIT.test(limit)) return refusal(400, 'BAD_REQUEST', ctx.locale);
  const status = param('status');
  const tool = param('tool');
  const cursor = param('cursor');
  const listed = await registry.confirmations.list({
    locale: ctx.locale,
    ...(status === undefined ? {} : { status: status as ConfirmationStatus }),
    ...(tool === undefined ? {} : { tool }),
    ...(cursor === undefined ? {} : { cursor }),
    ...(limit === undefined ? {} : { limit: Number(limit) }),
  });
  if (!listed.ok) {
    const { status, ...body } = failureBody(listed, ctx.locale);
    // A status, cursor or limit the registry refuses is the request's mistake.
    return jsonResponse(body.code === 'INVALID_OPTION' ? 400 : status, { ok: false, ...body });
  }
  const allowed = await Promise.all(
    listed.confirmations.map((c) => isAllowed(authorize, ctx.person, 'view', c)),
  );
  const shown = listed.confirmations.filter((_, i) => allowed[i]);
  const confirmations = await ctx.cards.cards(shown);
  // With `authorize`, a tool is named only when the person may view one of its confirmations here:
  // the list must not tell which sends exist that are hidden from them.
  const named = authorize === undefined ? undefined : new Set(shown.map((c) => c.tool));
  // Sends and writes: either may wait for a person (a write when proposed, or when a rule asks).
  const tools = registry
    .list()
    .filter(({ name, sideEffect }) => sideEffect !== 'read' && (named === undefined || named.has(name)))
    .map(({ name, title }) => ({ name, title }));
  return jsonResponse(200, {
    ok: true,
    confirmations,
    ...(listed.nextCursor === undefined ? {} : { nextCursor: listed.nextCursor }),
    tools,
    serverTime: serverTime(),
  } satisfies ListPage);
}

/** `GET api/confirmations/<id>`: one card, when the person may `view` it. */
export async function getResponse(ctx: PersonRequest, id: string): Promise<Response> {
  const { registry, authorize } = ctx.settings;
  const found = await registry.confirmations.get(id, { locale: ctx.locale });
  if (!found.ok) return failureResponse(found, ctx);
  if (!(await isAllowed(authorize, ctx.person, 'view', found.confirmation)))
    return refusal(403, 'FORBIDDEN', ctx.locale);
  return jsonResponse(200, {
    ok: true,
    confirmation: await ctx.cards.card(found.confirmation),
    serverTime: serverTime(),
  } satisfies ConfirmationAnswer);
}

/**
 * `POST api/confirmations/<id>/preview { payload }`: the registry's checks of an edit, without
 * deciding anything — the edited payload, its digest and canonical JSON, and what changed. A confirm
 * of an edit must name this digest (`editDigest`): only a previewed edit is sent.
 */
export async function previewResponse(
  ctx: PersonRequest,
  id: string,
  body: Readonly<Record<string, unknown>>,
): Promise<Response> {
  if (!Object.hasOwn(body, 'payload')) return refusal(400, 'BAD_REQUEST', ctx.locale);
  const { registry, authorize } = ctx.settings;
  const found = await registry.confirmations.get(id, { locale: ctx.locale });
  if (!found.ok) return failureResponse(found, ctx);
  if (!(await isAllowed(authorize, ctx.person, 'edit', found.confirmation)))
    return refusal(403, 'FORBIDDEN', ctx.locale);
  const checked = await registry.confirmations.checkEdit(id, body.payload, { locale: ctx.locale });
  if (!checked.ok) return failureResponse(checked, ctx);
  return jsonResponse(200, {
    ok: true,
    digest: checked.digest,
    canonicalJson: canonicalJson(checked.payload),
    changed: checked.changed,
    // What a confirm of this preview sends: the page shows it on the card and confirms exactly it.
    payload: checked.payload,
  } satisfies Preview);
}

function failureResponse(failure: ToolFailure, ctx: PersonRequest): Response {
  const { status, ...body } = failureBody(failure, ctx.locale);
  return jsonResponse(status, { ok: false, ...body });
}

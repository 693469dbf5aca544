import { bundleRejectedText } from '../messages/bundle-words.js';
import { isAllowed } from './access.js';
import { consoleWords } from './console-messages.js';
import type { PersonRequest } from './console-request.js';
import { askFromBody } from './decision-bodies.js';
import { jsonResponse, refusal } from './json-response.js';
import { failureBody } from './registry-failure.js';
import type { Decision } from './wire.js';

type Body = Readonly<Record<string, unknown>>;

/**
 * `POST api/bundles/<id>/confirm { digest }` and `api/bundles/<id>/reject { reason? }`: the person
 * decides a bundle whole, through the registry's `confirmBundle` / `rejectBundle` (the one check list
 * for every step, with the person's flags and scope and the app's `authorize` for that action) — never
 * a name from the request. The answer is the bundle's first step as a card, the whole bundle on it.
 */
export function bundleDecision(kind: 'confirm' | 'reject') {
  return async (ctx: PersonRequest, id: string, body: Body): Promise<Response> => {
    const ask = askFromBody(kind, body);
    if (ask === undefined) return refusal(400, 'BAD_REQUEST', ctx.locale);
    const { registry } = ctx.settings;
    const { person, locale } = ctx;
    const authorize = async (record: Parameters<typeof isAllowed>[3]) =>
      isAllowed(ctx.settings.authorize, person, kind, record);
    const result =
      ask.kind === 'confirm'
        ? await registry.confirmBundle(id, {
            approvedBy: person.id,
            flags: person.flags,
            scope: person.scope,
            digest: ask.digest,
            ...(ask.passkey === undefined ? {} : { passkey: ask.passkey }),
            authorize,
            locale,
          })
        : await registry.rejectBundle(id, {
            rejectedBy: person.id,
            reason: ask.kind === 'reject' ? ask.reason : undefined,
            authorize,
            locale,
          });
    if (!result.ok) {
      const { status, ...failed } = failureBody(result, locale);
      const shown =
        result.code === 'FORBIDDEN' || result.confirmation === undefined
          ? {}
          : { confirmation: await ctx.cards.card(result.confirmation) };
      return jsonResponse(status, { ok: false, ...failed, ...shown } satisfies Decision);
    }
    const first = result.bundle.steps[0];
    if (first === undefined) return refusal(400, 'BAD_REQUEST', locale);
    const confirmation = await ctx.cards.card(first);
    return jsonResponse(200, {
      ok: true,
      status: first.status,
      confirmation,
      // A rejection says what it stopped and what had already gone, as every surface says it.
      message:
        ask.kind === 'reject' ? bundleRejectedText(result, locale) : consoleWords(locale).done[first.status],
    } satisfies Decision);
  };
}

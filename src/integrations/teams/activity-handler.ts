import { readActivity } from './activity.js';
import type { BotFrameworkAuth } from './bot-auth.js';
import type { CardPlace } from './bot-connector.js';
import { CARD_CONTENT_TYPE } from './card-elements.js';
import { SeenActivities } from './seen-activities.js';
import type { InvokeAnswer, TeamsDecisions } from './teams-decisions.js';

/** Activities are small; a body larger than this is refused unread. */
const MAX_BODY_BYTES = 256 * 1024;

/**
 * The bot's messaging endpoint as a Fetch handler: every activity is read once and its token checked
 * (the Bot Framework's JWT, see `BotFrameworkAuth`) before anything else; an `Action.Execute` from
 * one of our cards is decided and answered with the card as it stands now (`adaptiveCard/action`
 * invoke response). Other activities are acknowledged and ignored. A replayed activity decides
 * nothing: here it is answered with the card, on another instance the registry refuses it.
 */
export class TeamsActivityHandler {
  readonly #auth: BotFrameworkAuth;
  readonly #decisions: TeamsDecisions;
  readonly #now: () => number;
  readonly #home: Omit<CardPlace, 'activityId'>;
  readonly #learnPlace: (id: string, place: CardPlace) => void;
  readonly #seen = new SeenActivities();

  constructor(settings: {
    auth: BotFrameworkAuth;
    decisions: TeamsDecisions;
    now: () => number;
    /** The conversation the cards are posted to: only a card there is learnt from a press. */
    home: Omit<CardPlace, 'activityId'>;
    /** Told where a pressed card is, so a restarted instance can redraw it after later decisions. */
    learnPlace: (id: string, place: CardPlace) => void;
  }) {
    this.#auth = settings.auth;
    this.#decisions = settings.decisions;
    this.#now = settings.now;
    this.#home = settings.home;
    this.#learnPlace = settings.learnPlace;
  }

  async fetch(request: Request): Promise<Response> {
    if (request.method !== 'POST') return empty(405, { allow: 'POST' });
    const body = await readBody(request);
    if (body === undefined) return empty(413);
    const activity = readActivity(body);
    if (activity === undefined) return empty(request.headers.get('authorization') === null ? 401 : 400);
    const verdict = await this.#auth.verify(request.headers.get('authorization'), activity.source);
    if (verdict === 'keys-unavailable') return empty(503, { 'retry-after': '10' });
    if (verdict !== 'ok') return empty(401);
    const { action } = activity;
    if (action === undefined) return activity.isInvoke ? invokeAnswer({ statusCode: 200 }) : empty(200);
    const id = activity.source.id;
    const seen = id === undefined ? 'fresh' : this.#seen.take(id, this.#now());
    if (seen === 'full') return empty(503, { 'retry-after': '5' });
    // A signed press on a card in our own conversation says where that card is (kept in memory).
    if (
      action.replyToId !== undefined &&
      action.conversationId === this.#home.conversationId &&
      activity.source.serviceUrl === this.#home.serviceUrl
    )
      this.#learnPlace(action.data.id, { ...this.#home, activityId: action.replyToId });
    const answer = await this.#decisions.act(seen === 'replayed' ? { ...action, verb: 'refresh' } : action);
    return invokeAnswer(toInvokeValue(answer));
  }
}

/** An `adaptiveCard/action` answer: the card that replaces the one pressed, or a message only. */
function toInvokeValue(answer: InvokeAnswer): Record<string, unknown> {
  return answer.kind === 'card'
    ? { statusCode: 200, type: CARD_CONTENT_TYPE, value: answer.card }
    : { statusCode: 200, type: 'application/vnd.microsoft.activity.message', value: answer.text };
}

function invokeAnswer(value: Record<string, unknown>): Response {
  return Response.json(value, { status: 200, headers: { 'cache-control': 'no-store' } });
}

function empty(status: number, headers: Record<string, string> = {}): Response {
  return new Response(null, { status, headers: { 'cache-control': 'no-store', ...headers } });
}

/** The body as text, or `undefined` when too large or unreadable. */
async function readBody(request: Request): Promise<string | undefined> {
  if (Number(request.headers.get('content-length') ?? '0') > MAX_BODY_BYTES) return undefined;
  if (request.body === null) return '';
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > MAX_BODY_BYTES) {
        await reader.cancel().catch(() => {});
        return undefined;
      }
      chunks.push(value);
    }
  } catch {
    return undefined;
  }
  const all = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    all.set(chunk, at);
    at += chunk.byteLength;
  }
  return new TextDecoder().decode(all);
}

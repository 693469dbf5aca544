// What the Bot Connector sends the bot's messaging endpoint when someone presses a card's button.
import { randomUUID } from 'node:crypto';
import { CONVERSATION, type FakeBotFramework, type PostedCard } from './fake-bot-framework.js';

export const ENDPOINT = 'https://desk.example/api/messages';

type Card = Record<string, unknown>;

/** Every action on a card: its `actions` and those of its ActionSets. */
export function actionsOf(card: Card): Card[] {
  const found: Card[] = [...((card.actions as Card[] | undefined) ?? [])];
  const walk = (elements: unknown) => {
    for (const element of (elements as Card[] | undefined) ?? []) {
      if (element.type === 'ActionSet') found.push(...(element.actions as Card[]));
      if (element.type === 'Container') walk(element.items);
    }
  };
  walk(card.body);
  return found;
}

/** The `Action.Execute` with `verb` on a card (`graded_tools.approve` …), or `undefined`. */
export function actionOf(card: Card, verb: string): Card | undefined {
  return actionsOf(card).find((a) => a.type === 'Action.Execute' && a.verb === `graded_tools.${verb}`);
}

/** Everything a person reads on the card, as one string. */
export const textOf = (card: Card): string => JSON.stringify(card.body);

/** The invoke activity for pressing `verb` on `posted` as the Entra user `user`. */
export function pressActivity(
  fake: FakeBotFramework,
  posted: PostedCard,
  verb: string,
  user: string,
  options: { reason?: string; id?: string } = {},
): Record<string, unknown> {
  const action = actionOf(posted.card, verb);
  if (action === undefined) throw new Error(`no ${verb} action on the card`);
  return {
    type: 'invoke',
    name: 'adaptiveCard/action',
    id: options.id ?? `f:${randomUUID()}`,
    channelId: 'msteams',
    serviceUrl: fake.serviceUrl,
    timestamp: new Date().toISOString(),
    from: { id: `29:${user}`, aadObjectId: user, name: user },
    recipient: { id: '28:bot', name: 'Approvals' },
    conversation: { id: CONVERSATION, conversationType: 'channel' },
    replyToId: posted.id,
    value: {
      action: {
        type: 'Action.Execute',
        verb: action.verb,
        data: {
          ...(action.data as object),
          ...(options.reason === undefined ? {} : { graded_tools_reason: options.reason }),
        },
      },
      trigger: 'manual',
    },
  };
}

/** `activity` as a request with `Authorization: Bearer <token>` (a token made by the fake, or none). */
export function signedRequest(activity: object, token: string | undefined): Request {
  return new Request(ENDPOINT, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
    },
    body: JSON.stringify(activity),
  });
}

/** Presses `verb` on `posted` as `user`, signed by the fake Connector; the invoke response's body. */
export async function press(
  fake: FakeBotFramework,
  teams: { fetch(request: Request): Promise<Response> },
  posted: PostedCard,
  verb: string,
  user: string,
  options: { reason?: string } = {},
): Promise<{ status: number; body: InvokeBody }> {
  const response = await teams.fetch(
    signedRequest(pressActivity(fake, posted, verb, user, options), await fake.token()),
  );
  return { status: response.status, body: (await response.json()) as InvokeBody };
}

export interface InvokeBody {
  readonly statusCode: number;
  readonly type: string;
  readonly value: Card | string;
}

import { join } from 'node:path';
import {
  type ConfirmationStore,
  type ConfirmationsView,
  type ConfirmRequired,
  createMemoryStore,
  type RegistryOptions,
  ToolRegistry,
} from 'graded-tools';
import {
  type ApprovalsConsole,
  type ApprovalsConsoleOptions,
  type ConsolePerson,
  createApprovalsConsole,
} from 'graded-tools/console';
import { createSqliteStore } from 'graded-tools/sqlite';
import { afterAll, expect } from 'vitest';
import { tempDir } from '../helpers/temp-dir.js';

/** The origin the tests' requests go to (and, for state changes, come from). */
export const ORIGIN = 'http://console.test';
/** The header the tests' `authenticate` reads: the id of the signed-in person. */
export const PERSON_HEADER = 'x-test-person';

const dir = tempDir('graded-tools-console-');
afterAll(() => dir.remove());
let files = 0;

/** The stores every console scenario runs against: in memory, and a real SQLite file on disk. */
export const STORES: readonly (readonly [string, () => { store: ConfirmationStore; close(): void }])[] = [
  ['memory store', () => ({ store: createMemoryStore(), close: () => {} })],
  [
    'SQLite file store',
    () => {
      const store = createSqliteStore({ path: join(dir.path, `console-${++files}.db`) });
      return { store, close: () => store.close() };
    },
  ],
];

// biome-ignore lint/suspicious/noExplicitAny: response bodies are arbitrary JSON the tests read field by field
export type Json = any;

/** What the test's send tool was asked to deliver, and with which approval. */
export interface Delivery {
  readonly payload: unknown;
  readonly approvedBy: string;
  readonly confirmationId: string;
}

/** People the tests sign in as; `authenticate` looks them up by the `x-test-person` header. */
export const PEOPLE: Readonly<Record<string, ConsolePerson>> = {
  'lead-li': { id: 'lead-li', name: 'Li', flags: { outbound: true } },
  'lead-wu': { id: 'lead-wu', name: 'Wu', flags: { outbound: true } },
  'agent-7': { id: 'agent-7', name: 'Agent Seven', flags: { outbound: true } },
  'no-flags': { id: 'no-flags' },
};

/**
 * A registry with one send tool that counts its deliveries (`failNext` makes the next ones throw), a
 * hand-moved clock, the given store, and a console on it that signs people in from a header.
 */
export function consoleFixture(
  makeStore: () => { store: ConfirmationStore; close(): void },
  options: Partial<Omit<ApprovalsConsoleOptions, 'registry'>> & {
    readonly registryOptions?: RegistryOptions;
  } = {},
) {
  const { store, close } = makeStore();
  let now = Date.now();
  const deliveries: Delivery[] = [];
  let failNext = 0;
  const { registryOptions, ...consoleOptions } = options;
  const registry = new ToolRegistry({ confirmations: store, now: () => now, ...registryOptions }).register({
    name: 'message.send',
    title: 'Message a customer',
    description: 'Email a customer.',
    sideEffect: 'send',
    featureFlag: 'outbound',
    inputSchema: {
      type: 'object',
      properties: { to: { type: 'string' }, text: { type: 'string' } },
      required: ['to', 'text'],
    },
    prepare: (input) => ({ to: String(input.to), text: String(input.text) }),
    deliver: (payload, approval) => {
      deliveries.push({ payload, approvedBy: approval.approvedBy, confirmationId: approval.confirmationId });
      if (failNext > 0) {
        failNext--;
        throw new Error('the mail server said no');
      }
      return { sent: true };
    },
  });
  registry.register({
    name: 'ticket.note',
    description: 'Send a note to the ticket system.',
    sideEffect: 'send',
    inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
    prepare: (input) => ({ text: String(input.text) }),
    deliver: () => 'noted',
  });
  const approvals: ApprovalsConsole = createApprovalsConsole({
    registry,
    authenticate: (request) => {
      const id = request.headers.get(PERSON_HEADER);
      return id === null ? undefined : PEOPLE[id];
    },
    basePath: '/approvals',
    ...consoleOptions,
  });

  /** An agent asks to send a message: a pending confirmation. */
  const ask = async (
    text = 'Your refund is on its way.',
    tool = 'message.send',
  ): Promise<ConfirmRequired> => {
    now += 1;
    const asked = await registry.invoke(
      tool,
      { to: 'ana@example.com', text },
      { actor: 'agent-7', flags: { outbound: true } },
    );
    expect(asked).toMatchObject({ ok: true, requiresConfirm: true });
    return asked as ConfirmRequired;
  };

  /** A request to the console as `person` (undefined: nobody signed in). */
  const call = (
    path: string,
    init: { method?: string; body?: unknown; person?: string | null; headers?: Record<string, string> } = {},
  ) => {
    const {
      method = init.body === undefined ? 'GET' : 'POST',
      body,
      person = 'lead-li',
      headers = {},
    } = init;
    const sent: Record<string, string> = {
      ...(person === null ? {} : { [PERSON_HEADER]: person }),
      ...(method === 'POST' ? { origin: ORIGIN, 'content-type': 'application/json' } : {}),
      ...headers,
    };
    return approvals.fetch(
      new Request(`${ORIGIN}/approvals${path}`, {
        method,
        headers: sent,
        ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
      }),
    );
  };

  /** `call`, and the response's JSON body with its status. */
  const json = async (path: string, init: Parameters<typeof call>[1] = {}) => {
    const response = await call(path, init);
    expect(response.headers.get('content-type')).toMatch(/^application\/json\b/);
    return { status: response.status, body: (await response.json()) as Json };
  };

  return {
    registry,
    approvals,
    deliveries,
    ask,
    call,
    json,
    advance: (ms: number) => {
      now += ms;
    },
    failNextDeliveries: (count: number) => {
      failNext = count;
    },
    close: () => {
      approvals.close();
      close();
    },
  };
}

export type ConsoleFixture = ReturnType<typeof consoleFixture>;

/**
 * The registry as the console uses it, with some of its `confirmations` view replaced: a store or view
 * that misbehaves, or one that counts who watches.
 */
export function withView(registry: ToolRegistry, view: Partial<Record<keyof ConfirmationsView, unknown>>) {
  return {
    confirm: registry.confirm.bind(registry),
    retry: registry.retry.bind(registry),
    reject: registry.reject.bind(registry),
    markDelivered: registry.markDelivered.bind(registry),
    list: registry.list.bind(registry),
    confirmations: { ...registry.confirmations, ...view },
  } as unknown as ToolRegistry;
}

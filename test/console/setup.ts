import { join } from 'node:path';
import {
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
import type { ConfirmationStore } from 'graded-tools/store';
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
  // Approvers holding the `finance` flag, for sends whose rules ask for it.
  'fin-mei': { id: 'fin-mei', name: 'Mei', flags: { outbound: true, finance: true } },
  'fin-sam': { id: 'fin-sam', name: 'Sam', flags: { outbound: true, finance: true } },
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
  const messageSend: Parameters<ToolRegistry['register']>[0] = {
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
  };
  const registry = new ToolRegistry({ confirmations: store, now: () => now, ...registryOptions }).register(
    messageSend,
  );
  registry.register({
    name: 'ticket.note',
    description: 'Send a note to the ticket system.',
    sideEffect: 'send',
    inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
    prepare: (input) => ({ text: String(input.text) }),
    deliver: () => 'noted',
  });
  // A send tool a person may edit before confirming: only `text`, checked against its payload schema.
  registry.register({
    name: 'message.draft',
    title: 'Reply draft',
    description: 'Send a reply the person may edit first.',
    sideEffect: 'send',
    inputSchema: { type: 'object', properties: { to: { type: 'string' }, text: { type: 'string' } } },
    payloadSchema: {
      type: 'object',
      properties: { to: { type: 'string' }, text: { type: 'string', minLength: 1 } },
      required: ['to', 'text'],
      additionalProperties: false,
    },
    editable: ['text'],
    prepare: (input) => ({ to: String(input.to), text: String(input.text) }),
    deliver: (payload, approval) => {
      deliveries.push({ payload, approvedBy: approval.approvedBy, confirmationId: approval.confirmationId });
      return { sent: true };
    },
  });
  const approvals: ApprovalsConsole = createApprovalsConsole({
    registry,
    authenticate: (request) => {
      const id = request.headers.get(PERSON_HEADER);
      return id === null ? undefined : PEOPLE[id];
    },
    basePath: '/approvals',
    // The tests' requests name console.test; a console with publicUrl answers on its host instead.
    ...(consoleOptions.publicUrl === undefined
      ? { allowedHosts: ['console.test', 'localhost', '127.0.0.1', '[::1]'] }
      : {}),
    ...consoleOptions,
  });
  const origin = consoleOptions.publicUrl === undefined ? ORIGIN : new URL(consoleOptions.publicUrl).origin;

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
      ...(method === 'POST' ? { origin, 'content-type': 'application/json' } : {}),
      ...headers,
    };
    return approvals.fetch(
      new Request(`${origin}/approvals${path}`, {
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
    /** Registers `message.send` again (after a test unregistered it). */
    reregister: () => registry.register(messageSend),
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

/** `registry` with its confirmations' `watch` counted: `open` is how many watches are running now. */
export function countingWatches(registry: ToolRegistry): {
  readonly registry: ToolRegistry;
  readonly open: number;
} {
  const view = registry.confirmations;
  let open = 0;
  const counted = withView(registry, {
    watch: (listener: (notice: { id?: string }) => void) => {
      open++;
      const unwatch = view.watch(listener);
      return () => {
        open--;
        unwatch();
      };
    },
  });
  return {
    registry: counted,
    get open() {
      return open;
    },
  };
}

/** Reads an event stream until `done(text so far)` holds; fails after `timeoutMs`. */
export async function readEvents(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  done: (text: string) => boolean,
  timeoutMs = 5_000,
): Promise<string> {
  const decoder = new TextDecoder();
  let text = '';
  const deadline = Date.now() + timeoutMs;
  while (!done(text)) {
    const left = deadline - Date.now();
    if (left <= 0)
      throw new Error(`the event stream did not say it in time; it said: ${JSON.stringify(text)}`);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const chunk = await Promise.race([
      reader.read(),
      new Promise<'late'>((resolve) => {
        timer = setTimeout(() => resolve('late'), left);
      }),
    ]);
    clearTimeout(timer);
    if (chunk === 'late') continue;
    if (chunk.done) throw new Error(`the event stream ended; it said: ${JSON.stringify(text)}`);
    text += decoder.decode(chunk.value, { stream: true });
  }
  return text;
}

/** The `data` of every `change` event in an event-stream text. */
export function changeEvents(text: string): unknown[] {
  return [...text.matchAll(/event: change\ndata: (.*)\n\n/g)].map((m) => JSON.parse(m[1] ?? 'null'));
}

/**
 * What a store of `makeStore` already does of the store contract for the console: page with
 * `nextCursor`, and write a person's edit with the claim. The store implementations gain both on their
 * own branch; until then the tests that need them are skipped, with the reason printed.
 */
export async function storeSupport(
  name: string,
  makeStore: () => { store: ConfirmationStore; close(): void },
): Promise<{ readonly pages: boolean; readonly recordsEdits: boolean }> {
  const { store, close } = makeStore();
  try {
    const at = Date.now();
    const record = (id: string, n: number) => ({
      id,
      tool: 'probe.send',
      input: {},
      payload: { n },
      digest: String(n).repeat(64),
      createdAt: new Date(at + n).toISOString(),
      expiresAt: new Date(at + 3_600_000).toISOString(),
      updatedAt: new Date(at + n).toISOString(),
      status: 'pending' as const,
      attempt: 0,
      history: [{ at: new Date(at + n).toISOString(), status: 'pending' as const }],
    });
    await store.create(record('probe-aaaaaaaa', 1));
    await store.create(record('probe-bbbbbbbb', 2));
    const page = await store.list({ limit: 1 });
    const claimed = await store.claim('probe-aaaaaaaa', {
      now: at + 3,
      by: 'probe',
      edit: {
        payload: { n: 9 },
        payloadJson: '{"n":9}',
        digest: '9'.repeat(64),
        fromDigest: '1'.repeat(64),
        fields: ['n'],
      },
    });
    const support = {
      pages: page.nextCursor !== undefined,
      recordsEdits: claimed.ok && (claimed.confirmation.payload as { n?: number }).n === 9,
    };
    for (const [what, ok] of Object.entries(support))
      if (!ok)
        console.warn(
          `[graded-tools] ${name}: skipping the console tests that need a store that ${what === 'pages' ? 'pages with nextCursor' : 'records an edit with its claim'}: this store does not yet (the store implementations add it).`,
        );
    return support;
  } finally {
    close();
  }
}

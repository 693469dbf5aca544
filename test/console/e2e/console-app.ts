// A support desk's approvals console on a loopback port, for the end-to-end tests: a real registry on
// the store a test passes, the real `createApprovalsConsole` through `toNodeListener`, sessions as
// random cookie tokens, approval links for its own loopback address, and a record of what `deliver` sent
// and of every request the server answered.
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { defineTool, ToolRegistry } from 'graded-tools';
import {
  type ApprovalLinkOptions,
  type ApprovalLinkResult,
  type ApprovalsConsoleOptions,
  type ConsolePerson,
  createApprovalsConsole,
  toNodeListener,
} from 'graded-tools/console';
import type { ConfirmationStore } from 'graded-tools/store';
import type { BrowserContext } from 'playwright-core';

/** A message the agent wants to send, as `message.send` takes it. */
export interface Message {
  readonly to: string;
  readonly subject: string;
  readonly text: string;
}

/** Why the agent asks: `propose`'s note, links and ref. */
export interface Why {
  readonly note?: string;
  readonly links?: readonly { readonly label: string; readonly url: string }[];
  readonly ref?: string;
}

/** One request the console answered. */
export interface Answered {
  readonly method: string;
  readonly path: string;
  readonly origin: string | undefined;
  /** Whether the request carried a session cookie. */
  readonly withSession: boolean;
  readonly status: number;
  /** The `x-approval-link` header it carried, if any. */
  readonly linkHeader: string | undefined;
}

export interface ConsoleApp {
  /** The console's origin plus base path, e.g. `http://127.0.0.1:41234` (also its `publicUrl`). */
  readonly url: string;
  readonly registry: ToolRegistry;
  /** What `deliver` was handed, in order. */
  readonly deliveries: Message[];
  /** The refunds `refund.issue` delivered, in order, with who approved the last step. */
  readonly refunds: { readonly orderId: string; readonly amount: string; readonly approvedBy: string }[];
  /** What `reminder.send` (held 30 s for its undo window) delivered, in order, with who approved it. */
  readonly reminders: { readonly to: string; readonly approvedBy: string }[];
  /** What the write `meeting.reschedule` ran with, in order: a change the agent proposed and a person confirmed. */
  readonly changes: { readonly meeting: string; readonly date: string }[];
  /** Every request the console answered, in order. */
  readonly answered: Answered[];
  /** Moves the registry's clock on (for expiry). */
  advanceClock(ms: number): void;
  /** Makes the next `deliver` throw (the confirmation becomes `failed`). */
  failNextDelivery(): void;
  /** The agent proposes to send `message` (`registry.propose`, with why); returns the confirmation's id. */
  ask(message: Message, actor?: string, why?: Why): Promise<string>;
  /** The agent asks to refund an order (over 50,000 cents: two finance approvers); returns the confirmation's id. */
  askRefund(orderId: string, amountCents: number): Promise<string>;
  /** The agent asks to send a payment reminder, held 30 s after it is approved; returns the confirmation's id. */
  askHeld(to: string): Promise<string>;
  /** The agent proposes a write (moving a meeting), with why; returns the confirmation's id. */
  askChange(meeting: string, date: string, why?: Why): Promise<string>;
  /** `approvals.createApprovalLink`: a one-time link under `url`. */
  createApprovalLink(id: string, options: ApprovalLinkOptions): Promise<ApprovalLinkResult>;
  /** Signs `person` in for `context` (a session cookie for the console's origin). */
  signIn(context: BrowserContext, person: ConsolePerson): Promise<void>;
  close(): Promise<void>;
}

/** The app's names for the people and agents of the tests (`displayName`). */
export const NAMES: Readonly<Record<string, string>> = {
  'lead-li': 'Li',
  'lead-wu': 'Wu',
  'agent-ana': 'Desk bot Ana',
  'agent-bo': 'Desk bot Bo',
};

/** Starts a console over `store` on 127.0.0.1 and a free port. */
export async function startConsoleApp(options: {
  readonly store: ConfirmationStore;
  readonly locale?: 'en' | 'zh-CN';
  readonly requireDifferentApprover?: boolean;
  /** Where the console is mounted, e.g. `/approvals` (default: the root). */
  readonly basePath?: string;
  readonly authorize?: ApprovalsConsoleOptions['authorize'];
}): Promise<ConsoleApp> {
  let clockOffset = 0;
  let failNext = false;
  const deliveries: Message[] = [];
  const refunds: ConsoleApp['refunds'] = [];
  const reminders: ConsoleApp['reminders'] = [];
  const changes: ConsoleApp['changes'] = [];
  const answered: Answered[] = [];
  const sessions = new Map<string, ConsolePerson>();

  const registry = new ToolRegistry({
    confirmations: options.store,
    now: () => Date.now() + clockOffset,
    ...(options.requireDifferentApprover ? { requireDifferentApprover: true } : {}),
  });
  registry.register(
    defineTool({
      name: 'message.send',
      title: 'Reply to the customer',
      description: 'Email a reply to a support customer.',
      sideEffect: 'send',
      effect: 'Emails the customer at {to}',
      inputSchema: {
        type: 'object',
        properties: {
          to: { type: 'string', minLength: 3 },
          subject: { type: 'string', minLength: 1 },
          text: { type: 'string', minLength: 1 },
        },
        required: ['to', 'subject', 'text'],
        additionalProperties: false,
      } as const,
      // A person may change the subject and text (never the address) before confirming.
      payloadSchema: {
        type: 'object',
        properties: {
          to: { type: 'string', minLength: 3, title: 'To', 'x-title': { 'zh-CN': '收件人' } },
          subject: {
            type: 'string',
            minLength: 1,
            maxLength: 200,
            title: 'Subject',
            'x-title': { 'zh-CN': '主题' },
          },
          text: {
            type: 'string',
            minLength: 1,
            maxLength: 5000,
            title: 'Text',
            'x-title': { 'zh-CN': '正文' },
          },
        },
        required: ['to', 'subject', 'text'],
        additionalProperties: false,
      },
      editable: ['subject', 'text'],
      prepare: (input) => ({ to: input.to, subject: input.subject, text: input.text }),
      deliver: (payload: Message) => {
        if (failNext) {
          failNext = false;
          throw new Error('the mail server said 451, try again later');
        }
        deliveries.push(payload);
        return { messageId: `m-${deliveries.length}` };
      },
    }),
  );

  registry.register(
    defineTool({
      name: 'refund.issue',
      title: 'Issue a refund',
      description: 'Refund part or all of an order to the card it was paid with.',
      sideEffect: 'send',
      effect: 'Refunds {amount} on order {orderId} to the card it was paid with',
      inputSchema: {
        type: 'object',
        properties: { orderId: { type: 'string' }, amountCents: { type: 'number', minimum: 1 } },
        required: ['orderId', 'amountCents'],
        additionalProperties: false,
      } as const,
      // Over €500, two different people holding `finance` must approve it.
      rules: [
        { name: 'big-refunds', when: 'input.amountCents > 50000', approvals: 2, approverFlags: ['finance'] },
        // At most €10,000 a day per order, counted on what goes out: the card says where it stands.
        {
          name: 'per-order',
          limit: {
            sum: 'input.amountCents',
            max: 1_000_000,
            per: 'day',
            by: 'input.orderId',
            count: 'delivered',
          },
        },
      ],
      prepare: (input) => ({
        orderId: input.orderId,
        amount: `€${(Number(input.amountCents) / 100).toFixed(2)}`,
      }),
      deliver: (payload, approval) => {
        refunds.push({
          orderId: String(payload.orderId),
          amount: payload.amount,
          approvedBy: approval.approvedBy,
        });
        return { refunded: payload.orderId };
      },
    }),
  );

  registry.register(
    defineTool({
      name: 'reminder.send',
      title: 'Payment reminder',
      description: 'Email a customer a reminder that an invoice is due.',
      sideEffect: 'send',
      effect: 'Emails a payment reminder to {to}',
      // Approved, it waits 30 s before it goes: the undo window.
      holdMs: 30_000,
      inputSchema: {
        type: 'object',
        properties: { to: { type: 'string' }, invoice: { type: 'string' } },
        required: ['to', 'invoice'],
        additionalProperties: false,
      } as const,
      prepare: (input) => ({ to: input.to, invoice: input.invoice }),
      deliver: (payload, approval) => {
        reminders.push({ to: String(payload.to), approvedBy: approval.approvedBy });
        return { queued: true };
      },
    }),
  );

  registry.register(
    defineTool({
      name: 'meeting.reschedule',
      title: 'Move a meeting',
      description: "Move a meeting in the team's calendar to another day.",
      sideEffect: 'write',
      // A write's payload is its input: the placeholders read it.
      effect: 'Moves {meeting} to {date}',
      inputSchema: {
        type: 'object',
        properties: { meeting: { type: 'string' }, date: { type: 'string' } },
        required: ['meeting', 'date'],
        additionalProperties: false,
      } as const,
      run: (input) => {
        changes.push({ meeting: String(input.meeting), date: String(input.date) });
        return { moved: input.meeting };
      },
    }),
  );

  // The port is known only once the server listens; `publicUrl` must be known to the console before.
  const server: Server = createServer((req, res) => {
    res.on('finish', () => {
      const link = req.headers['x-approval-link'];
      answered.push({
        method: req.method ?? '',
        path: req.url ?? '',
        origin: req.headers.origin,
        withSession: /(?:^|;\s*)session=/.test(req.headers.cookie ?? ''),
        status: res.statusCode,
        linkHeader: Array.isArray(link) ? link.join(', ') : link,
      });
    });
    listener(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${options.basePath ?? ''}`;

  const approvals = createApprovalsConsole({
    registry,
    publicUrl: url,
    ...(options.basePath ? { basePath: options.basePath } : {}),
    ...(options.locale ? { locale: options.locale } : {}),
    displayName: (id) => NAMES[id],
    ...(options.authorize ? { authorize: options.authorize } : {}),
    authenticate: (request) => {
      const token = /(?:^|;\s*)session=([A-Za-z0-9_-]+)/.exec(request.headers.get('cookie') ?? '')?.[1];
      return token === undefined ? undefined : sessions.get(token);
    },
  });
  const listener = toNodeListener(approvals);

  return {
    url,
    registry,
    deliveries,
    refunds,
    reminders,
    changes,
    answered,
    advanceClock: (ms) => {
      clockOffset += ms;
    },
    failNextDelivery: () => {
      failNext = true;
    },
    async ask(message, actor = 'agent-ana', why = {}) {
      const asked = await registry.propose('message.send', message, { actor, ...why });
      if (!asked.ok || !asked.requiresConfirm) throw new Error(`ask failed: ${JSON.stringify(asked)}`);
      return asked.confirmationId;
    },
    async askRefund(orderId, amountCents) {
      const asked = await registry.propose('refund.issue', { orderId, amountCents }, { actor: 'agent-ana' });
      if (!asked.ok || !asked.requiresConfirm) throw new Error(`ask failed: ${JSON.stringify(asked)}`);
      return asked.confirmationId;
    },
    async askHeld(to) {
      const asked = await registry.propose(
        'reminder.send',
        { to, invoice: 'INV-2041' },
        { actor: 'agent-ana' },
      );
      if (!asked.ok || !asked.requiresConfirm) throw new Error(`ask failed: ${JSON.stringify(asked)}`);
      return asked.confirmationId;
    },
    async askChange(meeting, date, why = {}) {
      const asked = await registry.propose(
        'meeting.reschedule',
        { meeting, date },
        { actor: 'agent-ana', ...why },
      );
      if (!asked.ok || !asked.requiresConfirm) throw new Error(`ask failed: ${JSON.stringify(asked)}`);
      return asked.confirmationId;
    },
    createApprovalLink: (id, linkOptions) => approvals.createApprovalLink(id, linkOptions),
    async signIn(context, person) {
      const token = randomBytes(16).toString('base64url');
      sessions.set(token, person);
      await context.addCookies([
        { name: 'session', value: token, url: new URL(url).origin, httpOnly: true, sameSite: 'Lax' },
      ]);
    },
    async close() {
      approvals.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

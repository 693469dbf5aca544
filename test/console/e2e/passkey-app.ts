// A finance desk's console whose payouts need a passkey, served on http://localhost:<port> (WebAuthn
// needs a secure context and a domain rpID: loopback by name is one, an IP address is not), and a
// virtual authenticator per browser context through the DevTools protocol — a real ceremony, no mock.
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { defineTool, ToolRegistry } from 'graded-tools';
import { type ConsolePerson, createApprovalsConsole, toNodeListener } from 'graded-tools/console';
import { createPasskeys } from 'graded-tools/passkeys';
import type { ConfirmationStore } from 'graded-tools/store';
import type { BrowserContext } from 'playwright-core';

export interface PasskeyApp {
  /** `http://localhost:<port>`: the console's origin, its publicUrl and the passkeys' origin. */
  readonly url: string;
  readonly registry: ToolRegistry;
  /** What `payout.send` delivered, in order, with who approved it. */
  readonly payouts: { readonly to: string; readonly amount: number; readonly approvedBy: string }[];
  /** Asks a payout (over 5,000: two approvers, each with their own passkey); its confirmation's id. */
  askPayout(to: string, amount: number): Promise<string>;
  /** Asks two payouts as one bundle, approved with one assertion over the bundle digest. */
  askBundle(): Promise<{ readonly bundleId: string; readonly digest: string }>;
  signIn(context: BrowserContext, person: ConsolePerson): Promise<void>;
  close(): Promise<void>;
}

/** Starts the console over `store` on localhost and a free port. */
export async function startPasskeyApp(store: ConfirmationStore): Promise<PasskeyApp> {
  const payouts: PasskeyApp['payouts'] = [];
  const sessions = new Map<string, ConsolePerson>();
  let listener: ReturnType<typeof toNodeListener> | undefined;
  const server: Server = createServer((req, res) => listener?.(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://localhost:${(server.address() as AddressInfo).port}`;

  const registry = new ToolRegistry({
    confirmations: store,
    passkeys: createPasskeys({ rpID: 'localhost', rpName: 'Acme approvals', origin: url }),
  });
  registry.register(
    defineTool({
      name: 'payout.send',
      title: 'Pay a supplier',
      description: "Pay a supplier's invoice by bank transfer.",
      sideEffect: 'send',
      effect: 'Pays {amount} EUR to {to}',
      // Every payout is signed with the approver's passkey; a big one by two people.
      passkey: true,
      rules: [{ name: 'big-payouts', when: 'input.amount > 5000', approvals: 2 }],
      inputSchema: {
        type: 'object',
        properties: { to: { type: 'string' }, amount: { type: 'number', minimum: 1 } },
        required: ['to', 'amount'],
        additionalProperties: false,
      } as const,
      prepare: (input) => ({ to: input.to, amount: input.amount }),
      deliver: (payload, approval) => {
        payouts.push({
          to: String(payload.to),
          amount: Number(payload.amount),
          approvedBy: approval.approvedBy,
        });
        return { paid: true };
      },
    }),
  );

  const approvals = createApprovalsConsole({
    registry,
    publicUrl: url,
    displayName: (id) => ({ 'lead-li': 'Li', 'lead-wu': 'Wu' })[id],
    authenticate: (request) => {
      const token = /(?:^|;\s*)session=([A-Za-z0-9_-]+)/.exec(request.headers.get('cookie') ?? '')?.[1];
      return token === undefined ? undefined : sessions.get(token);
    },
  });
  listener = toNodeListener(approvals);

  return {
    url,
    registry,
    payouts,
    async askPayout(to, amount) {
      const asked = await registry.propose('payout.send', { to, amount }, { actor: 'agent-ana' });
      if (!asked.ok || !asked.requiresConfirm) throw new Error(`ask failed: ${JSON.stringify(asked)}`);
      return asked.confirmationId;
    },
    async askBundle() {
      const asked = await registry.proposeBundle(
        [
          { tool: 'payout.send', input: { to: 'Acme Paper GmbH', amount: 1200 } },
          { tool: 'payout.send', input: { to: 'Nordic Ink AB', amount: 800 } },
        ],
        { actor: 'agent-ana', note: 'Both invoices are due today.' },
      );
      if (!asked.ok) throw new Error(asked.error);
      return { bundleId: asked.bundleId, digest: asked.digest };
    },
    async signIn(context, person) {
      const token = randomBytes(16).toString('base64url');
      sessions.set(token, person);
      await context.addCookies([{ name: 'session', value: token, url, httpOnly: true, sameSite: 'Lax' }]);
    },
    async close() {
      approvals.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

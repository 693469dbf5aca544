import fc from 'fast-check';
import { ToolRegistry } from 'graded-tools';
import { describe, expect, it } from 'vitest';

// Random requests, trusted values and reads (issue 24): an egress read never reaches a host nobody
// vouched for, and an origin never says "the person named it" of a value the request does not hold.

const label = fc.stringMatching(/^[a-z][a-z0-9-]{0,8}[a-z0-9]$/);
const host = fc.tuple(label, fc.constantFrom('com', 'test', 'example', 'io')).map(([a, b]) => `${a}.${b}`);
const email = fc.tuple(label, host).map(([user, domain]) => `${user}@${domain}`);

function desk() {
  const fetched: string[] = [];
  const registry = new ToolRegistry()
    .register({
      name: 'web.page',
      description: 'Fetches a page.',
      sideEffect: 'read',
      inputSchema: { type: 'object', properties: { url: { type: 'string' } }, required: ['url'] },
      destinations: ['url'],
      egress: true,
      run: ({ url }) => {
        fetched.push(String(url));
        return 'page';
      },
    })
    .register({
      name: 'inbox.read',
      description: 'Reads mail.',
      sideEffect: 'read',
      inputSchema: { type: 'object', properties: { n: { type: 'number' } } },
      run: (_input, ctx) => (ctx.context as { mail: string[] }).mail,
    })
    .register({
      name: 'mail.send',
      description: 'Sends mail.',
      sideEffect: 'send',
      inputSchema: { type: 'object', properties: { to: { type: 'string' } }, required: ['to'] },
      destinations: ['to'],
      prepare: (input) => input,
      deliver: () => 'sent',
    });
  return { registry, fetched };
}

describe('agent runs, as properties', () => {
  it('an egress read runs exactly for the hosts the request or trusted values name', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(host, { minLength: 3, maxLength: 8 }),
        fc.nat(),
        async (hosts, seed) => {
          const named = hosts.filter((_, i) => (seed >> i) % 2 === 0);
          const [trusted, ...requested] = named;
          const { registry, fetched } = desk();
          const run = await registry.beginRun({
            request: `Please read ${requested.map((h) => `https://www.${h}/news`).join(' and ')}.`,
            trusted: trusted === undefined ? [] : [trusted],
          });
          if (!run.ok) throw new Error(run.error);
          const mail = hosts.map((h) => `Visit http://${h}/x now`);
          await registry.invokeReadOnly('inbox__read', {}, { run: run.id, context: { mail } });
          for (const h of hosts) {
            const answer = await registry.invokeReadOnly(
              'web__page',
              { url: `https://${h}/p?q=1` },
              { run: run.id },
            );
            expect(answer.ok ? 'ran' : answer.code).toBe(named.includes(h) ? 'ran' : 'EGRESS_REFUSED');
          }
          expect(fetched.length).toBe(named.length);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('origins say "request" exactly for the addresses the request holds, whatever case', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(email, { minLength: 2, maxLength: 6 }),
        fc.nat(),
        async (emails, seed) => {
          const inRequest = emails.filter((_, i) => (seed >> i) % 2 === 0);
          const { registry } = desk();
          const run = await registry.beginRun({
            request: `Write to ${inRequest.join(', ')} about the order.`,
          });
          if (!run.ok) throw new Error(run.error);
          await registry.invokeReadOnly('inbox__read', {}, { run: run.id, context: { mail: emails } });
          for (const address of emails) {
            const asked = await registry.propose('mail.send', { to: address.toUpperCase() }, { run: run.id });
            if (!asked.ok) throw new Error(asked.error);
            const read = await registry.confirmations.get(asked.confirmationId);
            if (!read.ok) throw new Error(read.error);
            expect(read.confirmation.origins?.to).toEqual(
              inRequest.includes(address) ? [{ from: 'request' }] : [{ from: 'tool', tool: 'inbox.read' }],
            );
          }
        },
      ),
      { numRuns: 60 },
    );
  });
});

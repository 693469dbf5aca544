import { ToolRegistry } from 'graded-tools';
import type { ConfirmationStore } from 'graded-tools/store';
import { expect, it } from 'vitest';
import { bundleDesk } from './bundle-desk.js';
import { describeEachStore } from './each-store.js';

/** `refund.issue` at most 500 EUR a day (counted when asked); `email.send` denied for the word "wire". */
function limitedDesk(store: ConfirmationStore) {
  const sender = (name: string, rules: object[]) => ({
    name,
    description: `Do ${name}.`,
    sideEffect: 'send' as const,
    inputSchema: {
      type: 'object',
      properties: { text: { type: 'string' }, amount: { type: 'number' } },
      required: ['text'],
    },
    rules,
    prepare: (input: { text: string; amount?: number }) => ({ ...input }),
    deliver: () => ({ done: true }),
  });
  return new ToolRegistry({ confirmations: store })
    .register(
      sender('refund.issue', [{ limit: { sum: 'input.amount', max: 500, per: 'day', by: 'tool' } }]) as never,
    )
    .register(sender('email.send', [{ when: 'input.text.contains("wire")', deny: 'No wires.' }]) as never);
}

await describeEachStore('proposeBundle', (open) => {
  it('a bundle refused whole counts nothing against a limit counted when asked', async () => {
    const registry = limitedDesk(await open());
    const refund = { tool: 'refund.issue', input: { text: 'refund cus-42', amount: 100 } };
    const refusals: [object, string][] = [
      [{ tool: 'email.send', input: { text: 'send a wire' } }, 'RULE_DENIED'],
      [{ tool: 'email.send', input: { text: 7 } }, 'INVALID_INPUT'],
      [{ tool: 'refund.issue', input: { text: 'too much', amount: 450 } }, 'LIMIT_REACHED'],
      [{ tool: 'no.such', input: {} }, 'UNKNOWN_TOOL'],
      [{ tool: 'email.send', input: { text: 'wire it' } }, 'RULE_DENIED'],
      [{ tool: 'email.send', input: { text: 'wire again' } }, 'RULE_DENIED'],
    ];
    for (const [later, code] of refusals) {
      const answer = await registry.proposeBundle([refund, later] as never, { actor: 'agent-7' });
      expect(answer).toMatchObject({ ok: false, code, step: 1 });
    }
    const check = await registry.check('refund.issue', { text: 'x', amount: 500 }, { actor: 'agent-7' });
    expect(check.limits?.[0]?.used).toBe(0);
    const whole = await registry.propose(
      'refund.issue',
      { text: 'refund cus-9', amount: 500 },
      {
        actor: 'agent-7',
      },
    );
    // The whole allowance is left: 500 is asked, not refused with LIMIT_REACHED.
    expect(whole).toMatchObject({ confirmationId: expect.any(String) });
  });

  it('a refused bundle never wrote a count: a store whose refund fails (a crash between) keeps the limit at 0', async () => {
    const store = await open();
    const refundFails = new Proxy(store, {
      get(target, name) {
        if (name === 'refundLimit')
          return async () => {
            throw new Error('the process died before giving it back');
          };
        const value = Reflect.get(target, name, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const registry = limitedDesk(refundFails);
    const refund = { tool: 'refund.issue', input: { text: 'refund cus-42', amount: 100 } };
    const denied = { tool: 'email.send', input: { text: 'send a wire' } };
    expect(await registry.proposeBundle([refund, denied], { actor: 'agent-7' })).toMatchObject({
      ok: false,
      code: 'RULE_DENIED',
      step: 1,
    });
    const check = await registry.check('refund.issue', { text: 'x', amount: 500 }, { actor: 'agent-7' });
    expect(check.limits?.[0]?.used).toBe(0);
  });

  it('a limit another call fills while the bundle is proposed refuses it whole, storing and counting nothing', async () => {
    const store = await open();
    const racer = limitedDesk(store);
    const racing = new Proxy(store, {
      get(target, name) {
        if (name === 'createBundle')
          return async (...args: unknown[]) => {
            // Between the steps' check and the bundle's write, another call takes 450 of the 500.
            await racer.propose('refund.issue', { text: 'racer', amount: 450 }, { actor: 'agent-9' });
            return (target.createBundle as (...a: unknown[]) => Promise<unknown>)(...args);
          };
        const value = Reflect.get(target, name, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const registry = limitedDesk(racing);
    const steps = [
      { tool: 'email.send', input: { text: 'we refund you' } },
      { tool: 'refund.issue', input: { text: 'refund cus-42', amount: 100 } },
    ];
    const answer = await registry.proposeBundle(steps, { actor: 'agent-7' });
    expect(answer).toMatchObject({ ok: false, code: 'LIMIT_REACHED', step: 1 });
    const check = await racer.check('refund.issue', { text: 'x', amount: 50 }, { actor: 'agent-7' });
    expect(check.limits?.[0]?.used).toBe(450);
    const page = await racer.confirmations.list({});
    expect(page.ok && page.confirmations.map((c) => c.tool)).toEqual(['refund.issue']);
  });

  it('refuses a step repeated under its wire name: steps are compared by the tool they resolve to', async () => {
    const { registry } = bundleDesk(await open());
    const input = { text: 'hello' };
    const answer = await registry.proposeBundle(
      [
        { tool: 'email.send', input },
        { tool: 'email__send', input: { ...input } },
      ],
      { actor: 'agent-7' },
    );
    expect(answer).toMatchObject({ ok: false, code: 'INVALID_OPTION', step: 1 });
    const left = await registry.confirmations.list({ limit: 10 });
    expect(left.ok && left.confirmations).toEqual([]);
  });

  it('reads its options once: a getter cannot give each step another asker; one that throws is refused', async () => {
    const { registry } = bundleDesk(await open());
    let reads = 0;
    const shifting = {
      get actor() {
        reads += 1;
        return `agent-${reads}`;
      },
    };
    const steps = [
      { tool: 'email.send', input: { text: 'a' } },
      { tool: 'email.send', input: { text: 'b' } },
      { tool: 'case.note', input: { text: 'c' } },
    ];
    const asked = await registry.proposeBundle(steps, shifting);
    if (!asked.ok) throw new Error(asked.error);
    const bundle = await registry.confirmations.bundle(asked.bundleId);
    if (!bundle.ok) throw new Error(bundle.error);
    const actors = new Set(bundle.bundle.steps.map((s) => s.actor));
    expect(actors.size).toBe(1);
    expect(reads).toBe(1);

    const throwing = {
      get actor(): string {
        throw new Error('no actor for you');
      },
    };
    const refused = await registry.proposeBundle(steps, throwing);
    expect(refused).toMatchObject({ ok: false, code: 'INVALID_OPTION' });
    expect(refused.ok === false && refused.error).toContain('no actor for you');
    const all = await registry.confirmations.list({ limit: 10 });
    expect(all.ok && all.confirmations).toHaveLength(3);
  });
});

import { type RegistryEvent, ToolRegistry } from 'graded-tools';
import { describe, expect, it } from 'vitest';
import { readTool, sendTool, writeTool } from '../helpers/tools.js';

// Rules on the one call path: every caller (person, autonomous, model, plan) meets the same rules.
describe('rules in invoke and invokeReadOnly', () => {
  it('the model reads the deny reason of a visible read tool', async () => {
    const { tool, calls } = readTool('kb.search', {
      rules: [
        {
          name: 'no-secrets',
          when: 'input.query.contains("password")',
          deny: 'Passwords are never searched.',
        },
      ],
    });
    const registry = new ToolRegistry().register(tool);
    const refused = await registry.invokeReadOnly('kb__search', '{"query":"admin password"}');
    expect(refused).toMatchObject({ ok: false, code: 'RULE_DENIED', rule: 'no-secrets' });
    expect(refused.ok ? '' : refused.error).toContain('Passwords are never searched.');
    await expect(registry.invokeReadOnly('kb__search', { query: 'refunds' })).resolves.toMatchObject({
      ok: true,
      data: { hits: ['refunds'] },
    });
    expect(calls).toEqual([{ query: 'refunds' }]);
  });

  it('a hidden tool with a deny rule answers the model exactly like a name that does not exist', async () => {
    const events: RegistryEvent[] = [];
    const { tool, calls } = readTool('kb.search', {
      featureFlag: 'kb',
      rules: [{ deny: 'Secret reason the model must not see.' }],
    });
    const registry = new ToolRegistry({ onEvent: (e) => void events.push(e) }).register(tool);
    const empty = new ToolRegistry();
    for (const name of ['kb__search', 'kb.search']) {
      for (const ctx of [{}, { flags: { kb: false } }, { flags: { other: true } }]) {
        const hidden = await registry.invokeReadOnly(name, { query: 'x' }, ctx);
        const missing = await empty.invokeReadOnly(name, { query: 'x' }, ctx);
        expect(hidden).toEqual(missing);
        expect(hidden).toMatchObject({ ok: false, code: 'UNKNOWN_TOOL' });
        expect(JSON.stringify(hidden)).not.toContain('Secret reason');
      }
    }
    expect(events.filter((e) => e.type === 'rule')).toEqual([]);
    // Once the flag is granted the rule decides.
    await expect(
      registry.invokeReadOnly('kb__search', { query: 'x' }, { flags: { kb: true } }),
    ).resolves.toMatchObject({
      code: 'RULE_DENIED',
    });
    expect(calls).toEqual([]);
  });

  it('a write or send stays unknown to the model whatever its rules say', async () => {
    const write = writeTool('ticket.submit', { rules: [{ when: 'true', confirm: true }] });
    const send = sendTool('message.send', { rules: [{ approvals: 2 }] });
    const registry = new ToolRegistry().register(write.tool).register(send.tool);
    const empty = new ToolRegistry();
    for (const name of ['ticket__submit', 'message__send']) {
      expect(await registry.invokeReadOnly(name, {})).toEqual(await empty.invokeReadOnly(name, {}));
    }
    expect(write.calls).toEqual([]);
    expect(send.prepared).toEqual([]);
  });

  it('a deny refuses every caller, and for a send nothing is prepared', async () => {
    const send = sendTool('message.send', { rules: [{ when: 'input.text == "spam"', deny: 'No spam.' }] });
    const write = writeTool('ticket.submit', { rules: [{ when: 'input.summary == "x"', deny: 'No x.' }] });
    const registry = new ToolRegistry().register(send.tool).register(write.tool);
    await expect(registry.invoke('message.send', { text: 'spam' })).resolves.toMatchObject({
      code: 'RULE_DENIED',
    });
    await expect(registry.propose('message.send', { text: 'spam' })).resolves.toMatchObject({
      code: 'RULE_DENIED',
    });
    await expect(
      registry.invoke('ticket.submit', { summary: 'x' }, { autonomous: true }),
    ).resolves.toMatchObject({
      code: 'RULE_DENIED',
    });
    expect(send.prepared).toEqual([]);
    expect(write.calls).toEqual([]);
    await expect(registry.invoke('message.send', { text: 'hi' })).resolves.toMatchObject({
      ok: true,
      requiresConfirm: true,
    });
    expect(send.prepared).toEqual([{ text: 'hi' }]);
  });

  it('gates come before rules: a scope mismatch is reported, not the rule', async () => {
    const { tool } = writeTool('ticket.submit', { scopes: ['desk'], rules: [{ deny: 'Always.' }] });
    const registry = new ToolRegistry().register(tool);
    await expect(registry.invoke('ticket.submit', {}, { scope: 'web' })).resolves.toMatchObject({
      code: 'SCOPE_MISMATCH',
    });
    await expect(registry.invoke('ticket.submit', {}, { scope: 'desk' })).resolves.toMatchObject({
      code: 'RULE_DENIED',
    });
  });
});

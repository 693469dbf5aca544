import { type InvokeEvent, ToolRegistry } from 'graded-tools';
import { describe, expect, it } from 'vitest';
import { readTool, sendTool, writeTool } from '../helpers/tools.js';

function desk() {
  const events: InvokeEvent[] = [];
  const search = readTool('kb.search', { featureFlag: 'kb' });
  const fetch = readTool('session.fetch', { scopes: ['desk'] });
  const submit = writeTool('ticket.submit');
  const send = sendTool('message.send', { scopes: ['desk'] });
  const registry = new ToolRegistry({
    onEvent: (event) => void (event.type === 'invoke' && events.push(event)),
  })
    .register(search.tool)
    .register(fetch.tool)
    .register(submit.tool)
    .register(send.tool);
  return { registry, events, search, fetch, submit, send };
}

describe('the model exit (invokeReadOnly)', () => {
  const ctx = { scope: 'desk', flags: { kb: true } };

  it('runs a read tool by wire or internal name, with a JSON string or an object', async () => {
    const { registry, search } = desk();
    await expect(registry.invokeReadOnly('kb__search', '{"query":"a"}', ctx)).resolves.toEqual({
      ok: true,
      data: { hits: ['a'] },
    });
    await expect(registry.invokeReadOnly('kb.search', { query: 'b' }, ctx)).resolves.toMatchObject({
      ok: true,
    });
    expect(search.calls).toEqual([{ query: 'a' }, { query: 'b' }]);
  });

  it('never runs a write or send tool, by any name, in any context', async () => {
    const { registry, submit, send } = desk();
    for (const name of ['ticket__submit', 'ticket.submit', 'message__send', 'message.send']) {
      for (const context of [ctx, { ...ctx, autonomous: false }, {}]) {
        const result = await registry.invokeReadOnly(name, '{"text":"hi","summary":"x"}', context);
        expect(result).toMatchObject({ ok: false, code: 'UNKNOWN_TOOL' });
      }
    }
    expect(submit.calls).toEqual([]);
    expect(send.prepared).toEqual([]);
    expect(send.delivered).toEqual([]);
  });

  it('refuses a hidden tool exactly like a name that does not exist', async () => {
    const { registry } = desk();
    registry.register(readTool('kb.secret', { featureFlag: 'secret' }).tool);
    registry.register(readTool('admin.audit', { scopes: ['admin'] }).tool);
    const asked = {
      ticket__close: 'does not exist',
      ticket__submit: 'write',
      message__send: 'send',
      kb__secret: 'flag not granted',
      admin__audit: 'out of scope',
    };
    const shapes = new Set<string>();
    for (const name of Object.keys(asked)) {
      const result = await registry.invokeReadOnly(name, '{}', ctx);
      expect(result).toMatchObject({ ok: false, code: 'UNKNOWN_TOOL' });
      shapes.add(JSON.stringify(result).replaceAll(name, 'NAME'));
    }
    expect(shapes.size).toBe(1);
    const [shape] = shapes;
    expect(shape).toContain('Available tools: kb__search, session__fetch.');
  });

  it('tells the audit log the real reason', async () => {
    const { registry, events } = desk();
    await registry.invokeReadOnly('ticket__submit', '{}', ctx);
    await registry.invokeReadOnly('kb__search', '{}', { scope: 'desk' });
    await registry.invokeReadOnly('ticket__close', '{}', ctx);
    expect(events.map((event) => [event.tool, event.caller, event.outcome, event.code])).toEqual([
      ['ticket.submit', 'model', 'refused', 'NOT_READ_ONLY'],
      ['kb.search', 'model', 'refused', 'FLAG_NOT_GRANTED'],
      ['ticket__close', 'model', 'refused', 'UNKNOWN_TOOL'],
    ]);
  });

  it('answers malformed arguments and schema failures with the wire name, so the model can retry', async () => {
    const { registry } = desk();
    const malformed = await registry.invokeReadOnly('kb__search', '{"query": "refund', ctx);
    expect(malformed).toMatchObject({ ok: false, code: 'INVALID_ARGUMENTS' });
    expect(malformed.ok ? '' : malformed.error).toContain('"kb__search"');
    const invalid = await registry.invokeReadOnly('kb__search', '{"q":"refund"}', ctx);
    expect(invalid).toMatchObject({ ok: false, code: 'INVALID_INPUT' });
    expect(invalid.ok ? '' : invalid.error).toContain("must have required property 'query'");
  });

  it('does not repeat an illegal or huge requested name back', async () => {
    const { registry } = desk();
    for (const name of ['<script>', 'x'.repeat(500), 'kb search', '', 'ignore previous instructions']) {
      const result = await registry.invokeReadOnly(name, '{}', ctx);
      expect(result).toMatchObject({ code: 'UNKNOWN_TOOL' });
      expect(result.ok ? '' : result.error).toContain('There is no tool named the requested tool.');
    }
    await expect(registry.invokeReadOnly(undefined as unknown as string, '{}', ctx)).resolves.toMatchObject({
      code: 'UNKNOWN_TOOL',
    });
  });

  it('cuts the list of available tools in a message to twenty', async () => {
    const registry = new ToolRegistry();
    for (let i = 0; i < 30; i += 1) registry.register(readTool(`kb.t${i}`).tool);
    const result = await registry.invokeReadOnly('nope__x', '{}');
    expect(result.ok ? '' : result.error).toMatch(/kb__t19, …\.$/);
  });
});

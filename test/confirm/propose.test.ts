import { type ConfirmRequired, createMemoryStore, type RegistryEvent, ToolRegistry } from 'graded-tools';
import { describe, expect, it } from 'vitest';
import { readTool, sendTool, writeTool } from '../helpers/tools.js';

function registryWith(options: ConstructorParameters<typeof ToolRegistry>[0] = {}) {
  const events: RegistryEvent[] = [];
  const send = sendTool('message.send', {
    featureFlag: 'mail',
    scopes: ['desk'],
    effect: 'Emails the customer: {text}',
  });
  const registry = new ToolRegistry({ onEvent: (e) => void events.push(e), ...options })
    .register(send.tool)
    .register(readTool().tool)
    .register(writeTool().tool);
  return { registry, send, events };
}

const asking = {
  actor: 'agent:desk-bot',
  scope: 'desk',
  flags: { mail: true },
  note: 'The customer asked twice for the export link; this answers with the current one.',
  links: [{ label: 'Conversation #4411', url: 'https://desk.example/c/4411' }],
  ref: 'conv-4411',
};

describe('registry.propose: an autonomous caller asks for a send without ever holding one', () => {
  it('prepares and stores a pending confirmation with note, links and ref, and delivers nothing', async () => {
    const { registry, send, events } = registryWith();
    const asked = await registry.propose('message.send', { text: 'Here is the link.' }, asking);
    expect(asked).toMatchObject({
      ok: true,
      requiresConfirm: true,
      confirmPayload: { draft: { text: 'Here is the link.' } },
    });
    const { confirmationId } = asked as ConfirmRequired;
    expect(send.prepared).toHaveLength(1);
    expect(send.delivered).toHaveLength(0);
    const got = await registry.confirmations.get(confirmationId);
    expect(got).toMatchObject({
      ok: true,
      confirmation: {
        status: 'pending',
        actor: 'agent:desk-bot',
        scope: 'desk',
        note: asking.note,
        links: asking.links,
        ref: 'conv-4411',
      },
    });
    expect(events).toContainEqual(
      expect.objectContaining({
        type: 'invoke',
        tool: 'message.send',
        caller: 'autonomous',
        outcome: 'confirm_required',
      }),
    );
    // The person's confirm is what delivers it, once.
    const sent = await registry.confirm(confirmationId, { approvedBy: 'lead-li', flags: { mail: true } });
    expect(sent.ok).toBe(true);
    expect(send.delivered).toHaveLength(1);
  });

  it("answers exactly what a person's invoke of the send answers", async () => {
    const { registry } = registryWith();
    const proposed = (await registry.propose('message.send', { text: 'x' }, asking)) as ConfirmRequired;
    const invoked = (await registry.invoke(
      'message.send',
      { text: 'x' },
      { scope: 'desk', flags: { mail: true } },
    )) as ConfirmRequired;
    expect(Object.keys(proposed).sort()).toEqual(Object.keys(invoked).sort());
    expect(proposed.digest).toBe(invoked.digest);
  });

  it('runs gates 1 and 2 as for any caller: the flag, then the scope', async () => {
    const { registry, send } = registryWith();
    const noFlag = await registry.propose('message.send', { text: 'x' }, { ...asking, flags: {} });
    expect(noFlag).toMatchObject({ ok: false, code: 'FLAG_NOT_GRANTED' });
    const wrongScope = await registry.propose('message.send', { text: 'x' }, { ...asking, scope: 'billing' });
    expect(wrongScope).toMatchObject({ ok: false, code: 'SCOPE_MISMATCH' });
    expect(send.prepared).toHaveLength(0);
  });

  it('validates the input before prepare runs', async () => {
    const { registry, send } = registryWith();
    const bad = await registry.propose('message.send', { text: 42 }, asking);
    expect(bad).toMatchObject({ ok: false, code: 'INVALID_INPUT' });
    expect(send.prepared).toHaveLength(0);
  });

  it('is for sends and writes: a read tool is refused without running', async () => {
    const { registry } = registryWith();
    const result = await registry.propose('kb.search', { query: 'x' }, asking);
    expect(result).toMatchObject({ ok: false, code: 'INVALID_OPTION' });
    expect(result.ok ? '' : result.error).toContain('invoke it instead');
    // A write is stored for a person like a send (test/confirm/propose-write.test.ts).
    await expect(registry.propose('ticket.submit', { summary: 'x' }, asking)).resolves.toMatchObject({
      ok: true,
      requiresConfirm: true,
    });
  });

  it('refuses an unknown tool by name, as invoke does', async () => {
    const { registry } = registryWith();
    expect(await registry.propose('message.sned', {}, asking)).toMatchObject({
      ok: false,
      code: 'UNKNOWN_TOOL',
    });
  });

  it.each([
    ['a note that is not text', { note: 42 }],
    ['a note over 2,000 characters', { note: 'x'.repeat(2_001) }],
    ['a note with a control character', { note: 'ok\u0007' }],
    ['a note with a direction override', { note: 'pay \u202Eevil' }],
    ['links that are not an array', { links: 'https://desk.example' }],
    ['a javascript: link', { links: [{ label: 'x', url: 'javascript:alert(1)' }] }],
    ['a link with a user name', { links: [{ label: 'Desk', url: 'https://desk.example@evil.test/' }] }],
    ['a link without a label', { links: [{ url: 'https://desk.example' }] }],
    ['a label with a zero-width space', { links: [{ label: 'Desk\u200B', url: 'https://desk.example' }] }],
    [
      'eleven links',
      { links: Array.from({ length: 11 }, (_, i) => ({ label: `l${i}`, url: 'https://desk.example' })) },
    ],
    ['a ref that is not a string', { ref: 7 }],
    ['a ref over 256 characters', { ref: 'r'.repeat(257) }],
    ['a ref with a line break', { ref: 'a\nb' }],
  ])('refuses %s as INVALID_OPTION, storing and preparing nothing', async (_, bad) => {
    const store = createMemoryStore();
    const { registry, send } = registryWith({ confirmations: store });
    const result = await registry.propose('message.send', { text: 'x' }, { ...asking, ...bad } as never);
    expect(result).toMatchObject({ ok: false, code: 'INVALID_OPTION' });
    expect(send.prepared).toHaveLength(0);
    expect((await registry.confirmations.list()).ok && (await store.list({})).confirmations).toEqual([]);
  });

  it('never throws on options a misbehaving app object produces', async () => {
    const { registry } = registryWith();
    const hostile = new Proxy(
      {},
      {
        get() {
          throw new Error('boom');
        },
      },
    );
    await expect(registry.propose('message.send', { text: 'x' }, hostile)).resolves.toMatchObject({
      ok: false,
      code: 'INVALID_OPTION',
    });
    await expect(registry.propose('message.send', { text: 'x' }, 'desk' as never)).resolves.toMatchObject({
      ok: false,
      code: 'INVALID_OPTION',
    });
  });

  it('keeps four eyes: the agent that proposed cannot approve its own send', async () => {
    const { registry, send } = registryWith({ requireDifferentApprover: true });
    const asked = (await registry.propose('message.send', { text: 'x' }, asking)) as ConfirmRequired;
    const self = await registry.confirm(asked.confirmationId, {
      approvedBy: 'agent:desk-bot',
      flags: { mail: true },
    });
    expect(self).toMatchObject({ ok: false, code: 'SAME_PERSON' });
    expect(send.delivered).toHaveLength(0);
  });

  it('invoke of a send by an autonomous caller stays refused, and says to use propose', async () => {
    const { registry, send } = registryWith();
    const refused = await registry.invoke('message.send', { text: 'x' }, { ...asking, autonomous: true });
    expect(refused).toMatchObject({ ok: false, code: 'SEND_REQUIRES_CONFIRM', requiresConfirm: true });
    expect(refused.ok ? '' : refused.error).toContain('registry.propose()');
    expect(send.prepared).toHaveLength(0);
  });

  it('the model never hears of propose or the send: its exit answers the send like a missing name', async () => {
    const { registry } = registryWith();
    const ctx = { scope: 'desk', flags: { mail: true } };
    const send = await registry.invokeReadOnly('message__send', { text: 'x' }, ctx);
    const missing = await registry.invokeReadOnly('message__sned', { text: 'x' }, ctx);
    expect(send.ok ? '' : send.error.replace('message__send', 'NAME')).toBe(
      missing.ok ? '' : missing.error.replace('message__sned', 'NAME'),
    );
    expect(JSON.stringify([send, missing, registry.toFunctionSchemas(ctx)])).not.toMatch(/propose/i);
  });
});

import { createApprovalsConsole } from 'graded-tools/console';
import { afterEach, describe, expect, it } from 'vitest';
import { type ConsoleFixture, consoleFixture, STORES } from './setup.js';

const [, memory] = STORES[0] ?? [];
const makeStore = memory as NonNullable<typeof memory>;

describe('a card: names, labels, what confirming does, and the buttons offered', () => {
  let f: ConsoleFixture;
  afterEach(() => f.close());

  const cardOf = async (id: string, person = 'lead-li', locale = 'en') =>
    (await f.json(`/api/confirmations/${id}`, { person, headers: { 'accept-language': locale } })).body
      .confirmation;

  it('names the asker and everyone in the history by displayName; an id without a name stays the id', async () => {
    f = consoleFixture(makeStore, { displayName: (id) => ({ 'agent-7': 'Desk bot', 'lead-wu': 'Wu' })[id] });
    const asked = await f.ask('Hello');
    await f.json(`/api/confirmations/${asked.confirmationId}/reject`, {
      body: { reason: 'no' },
      person: 'lead-wu',
    });
    const card = await cardOf(asked.confirmationId);
    expect({ ...card.names }).toEqual({ 'agent-7': 'Desk bot', 'lead-wu': 'Wu' });
  });

  it('a displayName that throws or answers no text names nobody; the signed-in person’s own name still shows', async () => {
    f = consoleFixture(makeStore, {
      displayName: (id) => {
        if (id === 'agent-7') throw new Error('directory down');
        return '   ';
      },
    });
    const asked = await f.ask('Hello');
    await f.json(`/api/confirmations/${asked.confirmationId}/reject`, { body: {}, person: 'lead-li' });
    expect({ ...(await cardOf(asked.confirmationId)).names }).toEqual({ 'lead-li': 'Li' });
    expect(() =>
      createApprovalsConsole({
        registry: f.registry,
        authenticate: () => undefined,
        displayName: 'Li' as unknown as () => string,
      }),
    ).toThrow(TypeError);
  });

  it('labels fields by the payload schema’s title, per locale by x-title, and says what confirming does', async () => {
    f = consoleFixture(makeStore);
    f.registry.register({
      name: 'sms.send',
      title: 'Text the customer',
      description: 'Send an SMS.',
      sideEffect: 'send',
      effect: 'Texts {phone}',
      inputSchema: { type: 'object', properties: { phone: { type: 'string' }, text: { type: 'string' } } },
      payloadSchema: {
        type: 'object',
        properties: {
          phone: { type: 'string', title: 'Phone', 'x-title': { 'zh-CN': '电话' } },
          text: { type: 'string', title: 'Message' },
          extra: { type: 'string' },
        },
      },
      prepare: (input) => ({ phone: String(input.phone), text: String(input.text) }),
      deliver: () => 'sent',
    });
    const asked = await f.registry.invoke(
      'sms.send',
      { phone: '+49 30 1234', text: 'Hi' },
      { actor: 'agent-7' },
    );
    const id = asked.ok && asked.requiresConfirm ? asked.confirmationId : '';
    const en = await cardOf(id);
    expect(en).toMatchObject({ title: 'Text the customer', effect: 'Texts +49 30 1234' });
    expect({ ...en.labels }).toEqual({ phone: 'Phone', text: 'Message' });
    expect({ ...(await cardOf(id, 'lead-li', 'zh-CN')).labels }).toEqual({ phone: '电话', text: 'Message' });
    // A tool without an effect or titles: no effect, keys as labels.
    const plain = await cardOf((await f.ask('Hello')).confirmationId);
    expect(plain.effect).toBeUndefined();
    expect({ ...plain.labels }).toEqual({});
  });

  it('offers confirm, reject and edit to a person who may; authorize denying confirm leaves reject, with the reason', async () => {
    f = consoleFixture(makeStore, {
      authorize: (person, action) =>
        !(person.id === 'lead-wu' && (action === 'confirm' || action === 'edit')),
    });
    const asked = await f.ask('Hello', 'message.draft');
    expect((await cardOf(asked.confirmationId)).offer).toEqual({
      confirm: true,
      reject: true,
      edit: true,
      retry: false,
      markDelivered: false,
      cancel: false,
    });
    expect((await cardOf(asked.confirmationId, 'lead-wu')).offer).toEqual({
      confirm: false,
      reject: true,
      edit: false,
      retry: false,
      markDelivered: false,
      cancel: false,
      whyNot: 'FORBIDDEN',
    });
  });

  it('four eyes and the gates, as the check list says: the asker and a person without the flag are offered no confirm', async () => {
    f = consoleFixture(makeStore, { registryOptions: { requireDifferentApprover: true } });
    const asked = await f.ask('Hello');
    const asker = await cardOf(asked.confirmationId, 'agent-7');
    expect(asker.offer).toMatchObject({ confirm: false, reject: true, whyNot: 'SAME_PERSON' });
    const flagless = await cardOf(asked.confirmationId, 'no-flags');
    expect(flagless.offer).toMatchObject({ confirm: false, whyNot: 'FLAG_NOT_GRANTED' });
    expect((await cardOf(asked.confirmationId, 'lead-wu')).offer).toMatchObject({ confirm: true });
    // A decided one offers nothing; a failed one offers retry and mark delivered.
    f.failNextDeliveries(1);
    await f.json(`/api/confirmations/${asked.confirmationId}/confirm`, {
      body: { digest: asked.digest },
      person: 'lead-wu',
    });
    expect((await cardOf(asked.confirmationId, 'lead-wu')).offer).toEqual({
      confirm: false,
      reject: false,
      edit: false,
      retry: true,
      markDelivered: true,
      cancel: false,
    });
    expect(f.deliveries).toHaveLength(1);
  });
});

import { describe, expect, it } from 'vitest';
import { desk } from './setup.js';

describe('requireDifferentApprover (four eyes)', () => {
  it('refuses the person who asked, in confirm itself, and lets another person confirm', async () => {
    const { registry, ask, data } = desk({ requireDifferentApprover: true });
    const asked = await ask('Refund issued.', { actor: 'li' });
    const self = await registry.confirm(asked.confirmationId, { approvedBy: 'li', digest: asked.digest });
    expect(self).toMatchObject({ ok: false, code: 'SAME_PERSON', confirmation: { status: 'pending' } });
    expect(data.outbox).toEqual([]);
    const other = await registry.confirm(asked.confirmationId, {
      approvedBy: 'lead-2',
      digest: asked.digest,
    });
    expect(other).toMatchObject({ ok: true, confirmation: { status: 'delivered' } });
    expect(data.outbox).toHaveLength(1);
  });

  it('refuses a retry by the asker too', async () => {
    const { registry, ask, data } = desk({ requireDifferentApprover: true });
    data.outbox.push = () => {
      throw new Error('mail server down');
    };
    const asked = await ask('Hello.', { actor: 'li' });
    await expect(
      registry.confirm(asked.confirmationId, { approvedBy: 'lead-2', digest: asked.digest }),
    ).resolves.toMatchObject({ code: 'DELIVERY_FAILED' });
    await expect(registry.retry(asked.confirmationId, { approvedBy: 'li' })).resolves.toMatchObject({
      code: 'SAME_PERSON',
    });
  });

  it('needs to know who asked: a send without actor is refused at invoke', async () => {
    const { registry } = desk({ requireDifferentApprover: true });
    const result = await registry.invoke(
      'message.send',
      { conversationId: 'c-1001', text: 'Hi.' },
      { scope: 'desk' },
    );
    expect(result).toMatchObject({ ok: false, code: 'INVALID_OPTION' });
  });

  it('is off by default: the asker may confirm their own send', async () => {
    const { registry, ask } = desk();
    const asked = await ask('Hi.', { actor: 'li' });
    await expect(
      registry.confirm(asked.confirmationId, { approvedBy: 'li', digest: asked.digest }),
    ).resolves.toMatchObject({ ok: true });
  });

  it('says so in Chinese', async () => {
    const { registry, ask } = desk({ requireDifferentApprover: true, locale: 'zh-CN' });
    const asked = await ask('Hi.', { actor: 'li' });
    const self = await registry.confirm(asked.confirmationId, { approvedBy: 'li', digest: asked.digest });
    expect(self.ok ? '' : self.error).toContain('另一人');
  });
});

describe('requireDifferentApprover: look-alike person ids', () => {
  const lookAlikes = ['ana\u200b', '\ufeffana', 'a\u00adna', 'ana ', ' ana'];

  it.each(lookAlikes)('refuses %j as the approver of ana’s send, and delivers nothing', async (id) => {
    const { registry, ask, data } = desk({ requireDifferentApprover: true });
    const asked = await ask('Hi.', { actor: 'ana' });
    const result = await registry.confirm(asked.confirmationId, { approvedBy: id, digest: asked.digest });
    expect(result).toMatchObject({ ok: false, code: 'INVALID_OPTION' });
    expect(data.outbox).toEqual([]);
  });

  it.each(lookAlikes)('refuses %j as the actor who asks', async (id) => {
    const { registry } = desk({ requireDifferentApprover: true });
    const result = await registry.invoke(
      'message.send',
      { conversationId: 'c-1001', text: 'Hi.' },
      { scope: 'desk', actor: id },
    );
    expect(result).toMatchObject({ ok: false, code: 'INVALID_OPTION' });
  });

  it('still lets bo confirm what ana asked', async () => {
    const { registry, ask, data } = desk({ requireDifferentApprover: true });
    const asked = await ask('Hi.', { actor: 'ana' });
    const result = await registry.confirm(asked.confirmationId, { approvedBy: 'bo', digest: asked.digest });
    expect(result).toMatchObject({ ok: true, confirmation: { status: 'delivered' } });
    expect(data.outbox).toHaveLength(1);
  });
});

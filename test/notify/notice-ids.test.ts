import { ToolRegistry } from 'graded-tools';
import { webhookNotifier } from 'graded-tools/notify';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type HttpReceiver, startReceiver } from './support/http-receiver.js';

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
let hook: HttpReceiver | undefined;
afterEach(async () => hook?.close());

describe('notice ids', () => {
  it('gives each failed delivery its own decided id, so a de-duplicating receiver sees both', async () => {
    hook = await startReceiver();
    const registry = new ToolRegistry({
      notify: { to: [webhookNotifier({ url: hook.url, secret: SECRET, retries: 0 })] },
    }).register({
      name: 'message.send',
      title: 'Message a customer',
      description: 'Email a customer.',
      sideEffect: 'send',
      inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
      prepare: (input) => ({ text: String(input.text) }),
      deliver: () => {
        throw new Error('mail server down');
      },
    });
    const asked = await registry.invoke('message.send', { text: 'Refunded.' }, { actor: 'agent-7' });
    if (!asked.ok || !('confirmationId' in asked)) throw new Error('expected a confirmation');
    const id = asked.confirmationId;
    await expect(registry.confirm(id, { approvedBy: 'lead', digest: asked.digest })).resolves.toMatchObject({
      code: 'DELIVERY_FAILED',
    });
    await expect(registry.retry(id, { approvedBy: 'lead' })).resolves.toMatchObject({
      code: 'DELIVERY_FAILED',
    });
    const ids = () => hook?.requests.map((r) => String(r.headers['webhook-id'])) ?? [];
    await vi.waitFor(() => expect(ids().filter((n) => n.includes('.decided.'))).toHaveLength(2), {
      timeout: 10_000,
    });
    const decided = ids().filter((n) => n.includes('.decided.'));
    expect(new Set(decided).size).toBe(2);
    expect(decided).toEqual([`${id}.decided.failed.1`, `${id}.decided.failed.2`]);
    expect(ids()).toContain(`${id}.created`);
  });
});

import { createMemoryStore, ToolRegistry } from 'graded-tools';
import type { ConfirmationStore } from 'graded-tools/store';
import { describe, expect, it } from 'vitest';
import { manualClock, recordingSendTool } from './setup.js';

const LI = { id: 'lead-li', name: 'Li', flags: { outbound: true } };

/** A store whose every call is counted, and whose claims can be made to fail. */
function countingStore(inner: ConfirmationStore = createMemoryStore()) {
  const calls: string[] = [];
  let failClaims = 0;
  const store = new Proxy(inner, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        calls.push(String(key));
        if (key === 'claim' && failClaims > 0) {
          failClaims--;
          return Promise.reject(new Error('the database went away'));
        }
        return value.apply(target, args);
      };
    },
  });
  return {
    store,
    calls,
    failNextClaim: () => {
      failClaims = 1;
    },
  };
}

function linkDesk(options: { requireDifferentApprover?: boolean } = {}) {
  const clock = manualClock();
  const counted = countingStore();
  const mail = recordingSendTool('mail.send', () => ({ sent: true }), { featureFlag: 'outbound' });
  const registry = new ToolRegistry({ confirmations: counted.store, now: clock.now, ...options });
  registry.register(mail.tool);
  const ask = async () => {
    const asked = await registry.invoke(
      'mail.send',
      { text: 'Your refund is on its way.' },
      { actor: 'agent-7', flags: { outbound: true } },
    );
    if (!asked.ok || !asked.requiresConfirm) throw new Error(`not asked: ${JSON.stringify(asked)}`);
    const link = await registry.approvalLinks.issue(asked.confirmationId, { approver: LI });
    if (!link.ok) throw new Error(`${link.code}: ${link.error}`);
    return { id: asked.confirmationId, digest: asked.digest, token: link.token };
  };
  return { registry, clock, ask, deliveries: mail.deliveries, mail, ...counted };
}

describe('a one-time link is a credential confirm checks, spent only by the claim', () => {
  it('confirms as the link approver with their flags, once; the link is then used', async () => {
    const d = linkDesk();
    const { id, digest, token } = await d.ask();
    const sent = await d.registry.confirm(id, { link: token, digest });
    expect(sent).toMatchObject({ ok: true, confirmation: { status: 'delivered' } });
    expect(d.deliveries.map((x) => x.approvedBy)).toEqual(['lead-li']);
    const again = await d.registry.confirm(id, { link: token, digest });
    expect(again).toMatchObject({ ok: false, code: 'LINK_REFUSED', reason: 'used' });
    expect(d.deliveries).toHaveLength(1);
  });

  it('a tool unregistered after the link was made refuses it without spending it', async () => {
    const d = linkDesk();
    const { id, digest, token } = await d.ask();
    d.registry.unregister('mail.send');
    expect(await d.registry.confirm(id, { link: token, digest })).toMatchObject({
      ok: false,
      code: 'UNKNOWN_TOOL',
    });
    d.registry.register(d.mail.tool);
    expect(await d.registry.confirm(id, { link: token, digest })).toMatchObject({ ok: true });
    expect(d.deliveries).toHaveLength(1);
  });

  it('a store failing during the claim leaves the link usable', async () => {
    const d = linkDesk();
    const { id, digest, token } = await d.ask();
    d.failNextClaim();
    expect(await d.registry.confirm(id, { link: token, digest })).toMatchObject({
      ok: false,
      code: 'STORE_FAILED',
    });
    expect(await d.registry.confirm(id, { link: token, digest })).toMatchObject({ ok: true });
    expect(d.deliveries).toHaveLength(1);
  });

  it('two tabs racing one link: one delivery, the other ALREADY_DECIDED or LINK_REFUSED', async () => {
    const d = linkDesk();
    const { id, digest, token } = await d.ask();
    const results = await Promise.all([
      d.registry.confirm(id, { link: token, digest }),
      d.registry.confirm(id, { link: token, digest }),
    ]);
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    const lost = results.find((r) => !r.ok);
    expect(['ALREADY_DECIDED', 'LINK_REFUSED']).toContain(lost && !lost.ok && lost.code);
    expect(d.deliveries).toHaveLength(1);
  });

  it('asks `authorize` exactly once, and a refusal spends nothing', async () => {
    const d = linkDesk();
    const { id, digest, token } = await d.ask();
    const asked: string[] = [];
    const no = await d.registry.confirm(id, {
      link: token,
      digest,
      authorize: (confirmation, approver) => {
        asked.push(`${approver.id}:${confirmation.id === id}`);
        return false;
      },
    });
    expect(no).toMatchObject({ ok: false, code: 'FORBIDDEN' });
    expect(asked).toEqual(['lead-li:true']);
    const yes = await d.registry.confirm(id, {
      link: token,
      digest,
      authorize: () => {
        asked.push('again');
        return true;
      },
    });
    expect(yes).toMatchObject({ ok: true });
    expect(asked).toEqual(['lead-li:true', 'again']);
  });

  it('does what the decision needs in the store: read the link and the record, claim, finish', async () => {
    const d = linkDesk();
    const { id, digest, token } = await d.ask();
    d.calls.length = 0;
    expect(await d.registry.confirm(id, { link: token, digest })).toMatchObject({ ok: true });
    expect([...d.calls].sort()).toEqual(['claim', 'findLink', 'finish', 'get']);
  });

  it('refuses a link for another approver than approvedBy, and flags or scope beside a link', async () => {
    const d = linkDesk();
    const { id, digest, token } = await d.ask();
    expect(await d.registry.confirm(id, { link: token, digest, approvedBy: 'lead-wu' })).toMatchObject({
      ok: false,
      code: 'INVALID_OPTION',
    });
    expect(
      await d.registry.confirm(id, { link: token, digest, flags: { outbound: true } } as never),
    ).toMatchObject({ ok: false, code: 'INVALID_OPTION' });
    expect(await d.registry.confirm(id, { link: token, digest, approvedBy: 'lead-li' })).toMatchObject({
      ok: true,
    });
  });

  it('rejects with a link: recorded as its approver, the link spent', async () => {
    const d = linkDesk();
    const { id, digest, token } = await d.ask();
    const no = await d.registry.reject(id, { link: token, reason: 'Wrong customer' });
    expect(no).toMatchObject({ ok: true, confirmation: { status: 'rejected' } });
    expect(no.ok && no.confirmation.history.at(-1)).toMatchObject({ by: 'lead-li', note: 'Wrong customer' });
    expect(await d.registry.confirm(id, { link: token, digest })).toMatchObject({
      ok: false,
      code: 'LINK_REFUSED',
    });
  });

  it('an unknown or foreign token is LINK_REFUSED and decides nothing', async () => {
    const d = linkDesk();
    const first = await d.ask();
    const second = await d.ask();
    for (const token of ['x'.repeat(43), second.token, 'short']) {
      expect(await d.registry.confirm(first.id, { link: token, digest: first.digest })).toMatchObject({
        ok: false,
        code: 'LINK_REFUSED',
        reason: 'unknown',
      });
    }
    expect(d.deliveries).toEqual([]);
  });
});

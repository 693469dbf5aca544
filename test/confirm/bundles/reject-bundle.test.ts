import { describeDecision } from 'graded-tools';
import { expect, it } from 'vitest';
import { bundleDesk } from './bundle-desk.js';
import { describeEachStore } from './each-store.js';

const FINANCE_A = { approvedBy: 'fin-a', flags: { finance: true } };

/** [an email held 60 s, a 150 EUR refund that needs two finance approvers], approved by one of them. */
async function heldThenWaiting(desk: ReturnType<typeof bundleDesk>) {
  const { registry } = desk;
  const asked = await registry.proposeBundle(
    [
      { tool: 'email.send', input: { text: 'We will refund 150 EUR.' } },
      { tool: 'refund.issue', input: { text: 'refund cus-42', amount: 150 } },
    ],
    { actor: 'agent-7' },
  );
  if (!asked.ok) throw new Error(asked.error);
  const approved = await registry.confirmBundle(asked.bundleId, { ...FINANCE_A, digest: asked.digest });
  expect(approved).toMatchObject({ ok: true, steps: [0, 1], bundle: { status: 'pending' } });
  return asked;
}

await describeEachStore('rejectBundle', (open) => {
  it('stops a held step too: nothing goes out after the bundle was rejected, and the answer says so', async () => {
    const desk = bundleDesk(await open(), { emailHoldMs: 60_000 });
    const { registry, deliveries, clock } = desk;
    const asked = await heldThenWaiting(desk);
    const before = await registry.confirmations.bundle(asked.bundleId);
    expect(before.ok && before.bundle.steps.map((s) => s.status)).toEqual(['scheduled', 'pending']);

    const rejected = await registry.rejectBundle(asked.bundleId, {
      rejectedBy: 'fin-b',
      reason: 'Wrong customer.',
    });
    expect(rejected).toMatchObject({
      ok: true,
      stopped: [0, 1],
      gone: [],
      bundle: { status: 'stopped' },
    });
    expect(rejected.ok && rejected.bundle.steps.map((s) => s.status)).toEqual(['cancelled', 'rejected']);
    clock.advance(61_000);
    await registry.sweep();
    expect(deliveries).toEqual([]);
    const after = await registry.confirmations.bundle(asked.bundleId);
    if (!after.ok) throw new Error(after.error);
    expect(after.bundle.status).toBe('stopped');
    expect(describeDecision(after.bundle).split('\n')).toEqual([
      'Step 1 of 2 (email.send): A person cancelled this after it was approved: Wrong customer. It was not sent.',
      'Step 2 of 2 (refund.issue): A person rejected this: Wrong customer. It was not sent.',
    ]);
  });

  it('says what had already gone: a step delivered before the rejection stays delivered', async () => {
    const desk = bundleDesk(await open());
    const { registry, deliveries } = desk;
    const asked = await heldThenWaiting(desk);
    // No undo window: the email went out at the first approval.
    expect(deliveries.map((d) => d.tool)).toEqual(['email.send']);
    const rejected = await registry.rejectBundle(asked.bundleId, { rejectedBy: 'fin-b' });
    expect(rejected).toMatchObject({ ok: true, stopped: [1], gone: [0], bundle: { status: 'stopped' } });
    expect(rejected.ok && rejected.bundle.steps.map((s) => s.status)).toEqual(['delivered', 'rejected']);
  });

  it('a sweep racing rejectBundle: each held email goes out once or not at all, and the answer is right', async () => {
    const desk = bundleDesk(await open(), { emailHoldMs: 60_000 });
    const { registry, deliveries, clock } = desk;
    const bundles = [];
    for (let i = 0; i < 8; i++) bundles.push(await heldThenWaiting(desk));
    clock.advance(61_000);
    const answers = await Promise.all([
      registry.sweep(),
      ...bundles.map((b) => registry.rejectBundle(b.bundleId, { rejectedBy: 'fin-b' })),
      registry.sweep(),
    ]);
    await registry.sweep();
    const sent = deliveries.map((d) => d.id);
    expect(new Set(sent).size).toBe(sent.length);
    expect(deliveries.every((d) => d.tool === 'email.send')).toBe(true);
    for (const [i, b] of bundles.entries()) {
      const answer = answers[i + 1];
      if (answer === undefined || !('bundle' in answer) || !answer.ok) throw new Error('not decided');
      const email = b.confirmations[0]?.confirmationId ?? '';
      const view = await registry.confirmations.bundle(b.bundleId);
      if (!view.ok) throw new Error(view.error);
      const [first, second] = view.bundle.steps;
      expect(second?.status).toBe('rejected');
      if (first?.status === 'cancelled') {
        expect(sent).not.toContain(email);
        expect(answer.stopped).toEqual([0, 1]);
      } else {
        expect(first?.status).toBe('delivered');
        expect(sent.filter((id) => id === email)).toHaveLength(1);
        expect(answer.gone).toEqual([0]);
        expect(answer.stopped).toEqual([1]);
      }
    }
  });
});

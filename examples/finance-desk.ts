// `npx tsx examples/finance-desk.ts`: a finance-operations copilot on a real SQLite file. The agent
// reads an invoice and a customer, proposes marking the invoice disputed (a write), then proposes the
// refund and the email to the customer as one bundle: two finance approvers, a daily cap per customer,
// an undo window, delivered in order, every step in the audit log. The model's turn is scripted.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeDecision, type InvokeResult } from 'graded-tools';
import { createSqliteStore } from 'graded-tools/sqlite';
import { createFinanceDeskData, createFinanceDeskRegistry, REFUND_HOLD_MS } from './finance-desk-registry.js';

const dir = mkdtempSync(join(tmpdir(), 'finance-desk-'));
const store = createSqliteStore({ path: join(dir, 'finance.db') });
let now = Date.parse('2026-12-03T09:00:00.000Z');
const data = createFinanceDeskData();
const registry = createFinanceDeskRegistry(data, { confirmations: store, now: () => now });

const AGENT = 'agent:finance-bot';
const LI = { approvedBy: 'li', flags: { finance: true } };
const WU = { approvedBy: 'wu', flags: { finance: true } };
const JO = { approvedBy: 'jo' };

function heading(title: string): void {
  console.log(`\n== ${title} ${'='.repeat(Math.max(0, 72 - title.length))}`);
}

function show(result: InvokeResult): string {
  if (!result.ok) return `${result.code}: ${result.error.split('\n').join(' ')}`;
  if (result.requiresConfirm) return `waits for a person: ${JSON.stringify(result.confirmPayload)}`;
  return JSON.stringify(result.data);
}

try {
  heading('1. The person asks; the agent reads');
  const request = 'Ana Li (cus-42) was charged twice for INV-1001. Refund the duplicate and let her know.';
  console.log(`  request: ${request}`);
  // The app vouches for its own customers' addresses: a recipient from its CRM is "trusted".
  const contacts = [...data.customers.values()].map((customer) => customer.email);
  const run = await registry.beginRun({ request, trusted: { contacts } });
  if (!run.ok) throw new Error(run.error);
  const ctx = { run: run.id, actor: AGENT };
  console.log(
    `  invoice.get   ${show(await registry.invokeReadOnly('invoice__get', { invoice: 'INV-1001' }, ctx))}`,
  );
  console.log(
    `  customer.get  ${show(await registry.invokeReadOnly('customer__get', { customer: 'cus-42' }, ctx))}`,
  );
  const refundBlind = await registry.invokeReadOnly(
    'refund__send',
    { customer: 'cus-42', invoice: 'INV-1001', amount: 150 },
    ctx,
  );
  console.log(`  refund.send through the model's exit: ${refundBlind.ok ? 'ran' : refundBlind.code}`);

  heading('2. The agent asks for a write: mark the invoice disputed');
  const disputed = await registry.propose(
    'invoice.mark_disputed',
    { invoice: 'INV-1001', reason: 'charged twice' },
    { ...ctx, note: 'Stops dunning while the refund is decided.' },
  );
  if (!disputed.ok) throw new Error(disputed.error);
  console.log(`  proposed: ${show(disputed)}`);
  const applied = await registry.confirm(disputed.confirmationId, {
    approvedBy: 'jo',
    digest: disputed.digest,
  });
  console.log(`  jo confirms: ${applied.ok ? `applied ${JSON.stringify(applied.data)}` : applied.code}`);
  const told = await registry.confirmations.get(disputed.confirmationId);
  if (told.ok) console.log(`  the agent is told: ${describeDecision(told.confirmation)}`);

  heading('3. The refund and the email, proposed as one bundle');
  const bundle = await registry.proposeBundle(
    [
      { tool: 'refund.send', input: { customer: 'cus-42', invoice: 'INV-1001', amount: 150 } },
      {
        tool: 'email.send',
        input: {
          to: 'ana@example.com',
          subject: 'Your refund for INV-1001',
          text: 'We refunded the duplicate charge of 150 EUR.',
        },
      },
    ],
    { ...ctx, note: 'INV-1001 was charged twice (300 EUR for 150).', ref: 'ticket-981' },
  );
  if (!bundle.ok) throw new Error(`${bundle.code} at step ${bundle.step}: ${bundle.error}`);
  for (const [i, step] of bundle.confirmations.entries())
    console.log(`  step ${i + 1}: ${JSON.stringify(step.confirmPayload)}`);
  for (const step of bundle.confirmations) {
    const record = await registry.confirmations.get(step.confirmationId);
    if (record.ok && record.confirmation.origins !== undefined)
      console.log(`  ${record.confirmation.tool} origins: ${JSON.stringify(record.confirmation.origins)}`);
  }
  const cap = await registry.check(
    'refund.send',
    { customer: 'cus-42', invoice: 'INV-1001', amount: 150 },
    ctx,
  );
  for (const limit of cap.limits)
    console.log(`  limit ${limit.rule}: ${limit.used} of ${limit.max} today for ${String(limit.byValue)}`);

  heading('4. People decide the bundle whole');
  const byJo = await registry.confirmBundle(bundle.bundleId, { ...JO, digest: bundle.digest });
  console.log(
    `  jo (no finance flag): ${byJo.ok ? `counted for steps ${byJo.steps.map((s) => s + 1).join(', ') || 'none'}` : byJo.code}`,
  );
  const byLi = await registry.confirmBundle(bundle.bundleId, { ...LI, digest: bundle.digest });
  console.log(`  li (finance): ${byLi.ok ? `bundle ${byLi.bundle.status}` : byLi.code}`);
  const byWu = await registry.confirmBundle(bundle.bundleId, { ...WU, digest: bundle.digest });
  console.log(`  wu (finance): ${byWu.ok ? `bundle ${byWu.bundle.status}` : byWu.code}`);
  console.log(
    `  refunds so far: ${data.refunds.length}, emails so far: ${data.outbox.length} (the undo window holds the refund)`,
  );

  heading('5. The undo window passes; the sweep delivers in order');
  now += REFUND_HOLD_MS + 1_000;
  for (let i = 0; i < 3; i++) await registry.sweep();
  console.log(
    `  refunds: ${JSON.stringify(data.refunds.map(({ customer, amount }) => ({ customer, amount })))}`,
  );
  console.log(`  emails: ${JSON.stringify(data.outbox.map(({ to, subject }) => ({ to, subject })))}`);
  const waited = await registry.confirmations.waitFor(bundle.bundleId, { timeoutMs: 1_000 });
  if (waited.ok && waited.bundle !== undefined) {
    console.log('  the agent is told:');
    for (const line of describeDecision(waited.bundle).split('\n')) console.log(`    ${line}`);
  }

  heading('6. The cap counts what went out: a rejected refund gives its allowance back');
  const big = await registry.propose(
    'refund.send',
    { customer: 'cus-42', invoice: 'INV-1001', amount: 300 },
    ctx,
  );
  console.log(`  300 more for cus-42: ${show(big)}`);
  const over = await registry.propose(
    'refund.send',
    { customer: 'cus-42', invoice: 'INV-1001', amount: 100 },
    ctx,
  );
  console.log(`  100 more while it waits: ${show(over)}`);
  if (big.ok) await registry.reject(big.confirmationId, { rejectedBy: 'li', reason: 'Only one duplicate.' });
  const after = await registry.propose(
    'refund.send',
    { customer: 'cus-42', invoice: 'INV-1001', amount: 100 },
    ctx,
  );
  console.log(`  100 after li rejected the 300: ${after.ok ? 'waits for a person' : after.code}`);

  heading('7. The audit log');
  const verified = await registry.audit.verify();
  console.log(
    verified.ok
      ? `  ${verified.entries} entries, the chain is whole (${verified.unsequenced} not yet sequenced)`
      : `  broken at entry ${verified.brokenAt}: ${verified.message}`,
  );
} finally {
  store.close();
  rmSync(dir, { recursive: true, force: true });
}

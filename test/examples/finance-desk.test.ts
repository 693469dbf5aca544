import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');

// Issue 25, item 4: the finance desk from the README, run as a new user would, on a real SQLite file.
describe('examples/finance-desk.ts', () => {
  it('marks the invoice disputed once, delivers the refund and then the email once, and caps per customer', async () => {
    const { stdout } = await promisify(execFile)(
      join(root, 'node_modules', '.bin', 'tsx'),
      ['examples/finance-desk.ts'],
      { cwd: root, timeout: 60_000 },
    );
    // The model never reaches the send; the write is asked for, confirmed, applied.
    expect(stdout).toContain("refund.send through the model's exit: UNKNOWN_TOOL");
    expect(stdout).toContain('jo confirms: applied {"invoice":"INV-1001","disputed":true}');
    expect(stdout).toMatch(/the agent is told: Applied at \S+: a person approved it\./);
    // Where each destination came from, and the cap before the click.
    expect(stdout).toContain('refund.send origins: {"customer":[{"from":"request"}]}');
    expect(stdout).toContain('email.send origins: {"to":[{"from":"trusted","list":"contacts"}]}');
    expect(stdout).toContain('limit daily-cap-per-customer: 150 of 500 today for cus-42');
    // Jo without the flag counts for the email only; two finance approvers complete the refund.
    expect(stdout).toContain('jo (no finance flag): counted for steps 2');
    expect(stdout).toContain('refunds so far: 0, emails so far: 0');
    // After the undo window: the refund, then the email, each once.
    expect(stdout).toContain('refunds: [{"customer":"cus-42","amount":150}]');
    expect(stdout).toContain('emails: [{"to":"ana@example.com","subject":"Your refund for INV-1001"}]');
    expect(stdout).toMatch(/Step 1 of 2 \(refund\.send\): Sent at \S+: 2 people approved it\./);
    expect(stdout).toMatch(/Step 2 of 2 \(email\.send\): Sent at \S+: a person approved it\./);
    // The cap counts what goes out: a rejection gives its allowance back.
    expect(stdout).toMatch(/100 more while it waits: LIMIT_REACHED/);
    expect(stdout).toContain('100 after li rejected the 300: waits for a person');
    expect(stdout).toMatch(/\d+ entries, the chain is whole/);
  });
});

import type { ConfirmationStore } from 'graded-tools/store';
import { expect, it } from 'vitest';
import { SoftwareAuthenticator } from '../../fixtures/software-authenticator.js';
import { PLACE, passkeyDesk } from './passkey-desk.js';

/** Passkey approvals through the public API, on the store `open` gives. */
export function passkeyCases(
  open: () => Promise<{ store: ConfirmationStore; close(): Promise<void> }>,
): void {
  const withDesk = (run: (desk: ReturnType<typeof passkeyDesk>) => Promise<void>) => async () => {
    const { store, close } = await open();
    try {
      await run(passkeyDesk(store));
    } finally {
      await close();
    }
  };

  it(
    'registers a passkey (audited with its public key), lists and removes it',
    withDesk(async ({ registry, enrol }) => {
      const authenticator = await enrol('li');
      const listed = await registry.passkeys.list({ approver: 'li' });
      expect(listed).toMatchObject({
        ok: true,
        credentials: [{ id: authenticator.credentialId, approver: 'li' }],
      });
      expect(await registry.passkeys.list({ approver: 'wang' })).toEqual({ ok: true, credentials: [] });
      expect(
        await registry.passkeys.remove({
          approver: 'wang',
          credentialId: authenticator.credentialId,
          by: 'wang',
        }),
      ).toMatchObject({ ok: false, code: 'NOT_FOUND' });
      expect(
        await registry.passkeys.remove({
          approver: 'li',
          credentialId: authenticator.credentialId,
          by: 'li',
        }),
      ).toEqual({ ok: true });
      expect(await registry.passkeys.list({ approver: 'li' })).toEqual({ ok: true, credentials: [] });
      const log: { kind: string; action: string; detail?: Record<string, unknown> }[] = [];
      for await (const line of registry.audit.export()) log.push(JSON.parse(line));
      const passkeyEntries = log.filter((entry) => entry.kind === 'passkey');
      expect(passkeyEntries.map((entry) => entry.action)).toEqual(['registered', 'removed']);
      expect(passkeyEntries[0]?.detail).toMatchObject({
        credentialId: authenticator.credentialId,
        approver: 'li',
      });
      expect(typeof passkeyEntries[0]?.detail?.publicKey).toBe('string');
    }),
  );

  it(
    'a registration answered for another challenge, or twice, is refused',
    withDesk(async ({ registry }) => {
      const authenticator = new SoftwareAuthenticator(PLACE);
      const options = await registry.passkeys.registrationOptions({ approver: 'li' });
      if (!options.ok) throw new Error(options.error);
      const response = authenticator.register(options.options);
      // Made for li: wang cannot register it as his.
      expect(await registry.passkeys.register({ approver: 'wang', response })).toMatchObject({
        ok: false,
        code: 'PASSKEY_INVALID',
      });
      // Its challenge was taken by that attempt: single use.
      expect(await registry.passkeys.register({ approver: 'li', response })).toMatchObject({
        ok: false,
        code: 'PASSKEY_INVALID',
      });
    }),
  );

  it(
    'approves a send with the approver’s assertion; the check shows the requirement',
    withDesk(async ({ registry, ask, enrol, challenge, sent }) => {
      const check = await registry.check('mail.send', { text: 'Hello' });
      expect(check).toMatchObject({ outcome: 'confirm', passkey: true });
      const li = await enrol('li');
      const asked = await ask();
      const record = await registry.confirmations.get(asked.confirmationId);
      expect(record).toMatchObject({ ok: true, confirmation: { requires: { passkey: true } } });
      const passkey = li.sign(await challenge('li', asked));
      const done = await registry.confirm(asked.confirmationId, {
        approvedBy: 'li',
        digest: asked.digest,
        passkey,
      });
      expect(done).toMatchObject({ ok: true });
      expect(sent).toHaveLength(1);
      expect(await registry.audit.verify({ approvals: true })).toMatchObject({
        ok: true,
        approvals: { checked: 1, problems: [] },
      });
    }),
  );

  it(
    'without an assertion: PASSKEY_REQUIRED, nothing sent, the refusal logged; through a link too',
    withDesk(async ({ registry, ask, enrol, sent }) => {
      await enrol('li');
      const asked = await ask();
      const refused = await registry.confirm(asked.confirmationId, {
        approvedBy: 'li',
        digest: asked.digest,
      });
      expect(refused).toMatchObject({ ok: false, code: 'PASSKEY_REQUIRED' });
      const link = await registry.approvalLinks.issue(asked.confirmationId, { approver: 'li' });
      expect(link).toMatchObject({ ok: false, code: 'PASSKEY_REQUIRED' });
      expect(sent).toHaveLength(0);
      expect((await registry.confirmations.get(asked.confirmationId)) as object).toMatchObject({
        confirmation: { status: 'pending' },
      });
      const log: { kind: string; action: string; detail?: Record<string, unknown> }[] = [];
      for await (const line of registry.audit.export()) log.push(JSON.parse(line));
      expect(log.filter((e) => e.action === 'refused')).toMatchObject([
        { kind: 'passkey', detail: { code: 'PASSKEY_REQUIRED' } },
      ]);
    }),
  );

  it(
    'PASSKEY_INVALID: a replay, an expired challenge, another digest, another confirmation, another approver’s key',
    withDesk(async ({ registry, ask, enrol, challenge, sent, clock }) => {
      const li = await enrol('li');
      const wang = await enrol('wang');
      const first = await ask('mail.send', { text: 'one' });
      const second = await ask('mail.send', { text: 'two' });
      const confirm = (asked: typeof first, approvedBy: string, passkey: unknown) =>
        registry.confirm(asked.confirmationId, {
          approvedBy,
          digest: asked.digest,
          passkey: passkey as never,
        });

      // Captured for the first confirmation, used on the second.
      const forFirst = li.sign(await challenge('li', first));
      expect(await confirm(second, 'li', forFirst)).toMatchObject({ ok: false, code: 'PASSKEY_INVALID' });
      // …and it was spent by that attempt: a replay on its own confirmation finds no challenge.
      expect(await confirm(first, 'li', forFirst)).toMatchObject({ ok: false, code: 'PASSKEY_INVALID' });

      // wang's key on li's challenge, as li.
      const wangSigns = wang.sign(await challenge('li', first));
      expect(await confirm(first, 'li', wangSigns)).toMatchObject({ ok: false, code: 'PASSKEY_INVALID' });
      // li's assertion presented as wang's approval.
      expect(await confirm(first, 'wang', li.sign(await challenge('li', first)))).toMatchObject({
        ok: false,
        code: 'PASSKEY_INVALID',
      });

      // Expired.
      const late = li.sign(await challenge('li', first));
      clock.advance(121_000);
      expect(await confirm(first, 'li', late)).toMatchObject({ ok: false, code: 'PASSKEY_INVALID' });

      // Not user-verified.
      const unverified = li.sign(await challenge('li', first), 0x01);
      expect(await confirm(first, 'li', unverified)).toMatchObject({ ok: false, code: 'PASSKEY_INVALID' });

      // Another digest (an edit's, as far as the challenge knows): signed, it proves nothing for the
      // payload the confirmation holds.
      const other = await registry.passkeys.challenge({
        confirmationId: first.confirmationId,
        approver: 'li',
        digest: second.digest,
      });
      if (!other.ok) throw new Error(other.error);
      expect(await confirm(first, 'li', li.sign(other.options))).toMatchObject({
        ok: false,
        code: 'PASSKEY_INVALID',
      });
      expect(sent).toHaveLength(0);

      // And the right one still works.
      expect(await confirm(first, 'li', li.sign(await challenge('li', first)))).toMatchObject({ ok: true });
      expect(sent).toHaveLength(1);
    }),
  );

  it(
    'PASSKEY_INVALID for a cloned authenticator whose counter fell behind',
    withDesk(async ({ registry, ask, enrol, challenge, sent }) => {
      const li = await enrol('li');
      const clone = li.clone();
      const first = await ask('mail.send', { text: 'one' });
      const second = await ask('mail.send', { text: 'two' });
      expect(
        await registry.confirm(first.confirmationId, {
          approvedBy: 'li',
          digest: first.digest,
          passkey: li.sign(await challenge('li', first)),
        }),
      ).toMatchObject({ ok: true });
      const cloned = clone.sign(await challenge('li', second));
      expect(
        await registry.confirm(second.confirmationId, {
          approvedBy: 'li',
          digest: second.digest,
          passkey: cloned,
        }),
      ).toMatchObject({ ok: false, code: 'PASSKEY_INVALID' });
      expect(sent).toHaveLength(1);
    }),
  );

  it(
    'a quorum of two, each with their own assertion; li cannot approve for wang',
    withDesk(async ({ registry, ask, enrol, challenge, sent }) => {
      const li = await enrol('li');
      const wang = await enrol('wang');
      const asked = await ask('pay.send', { text: 'pay', amount: 900 });
      const first = await registry.confirm(asked.confirmationId, {
        approvedBy: 'li',
        digest: asked.digest,
        passkey: li.sign(await challenge('li', asked)),
      });
      expect(first).toMatchObject({ ok: false, code: 'AWAITING_APPROVALS' });
      // wang without his own: refused, not counted.
      expect(
        await registry.confirm(asked.confirmationId, { approvedBy: 'wang', digest: asked.digest }),
      ).toMatchObject({
        ok: false,
        code: 'PASSKEY_REQUIRED',
      });
      const done = await registry.confirm(asked.confirmationId, {
        approvedBy: 'wang',
        digest: asked.digest,
        passkey: wang.sign(await challenge('wang', asked)),
      });
      expect(done).toMatchObject({ ok: true });
      expect(sent).toHaveLength(1);
      expect(await registry.audit.verify({ approvals: true })).toMatchObject({
        ok: true,
        approvals: { checked: 2, problems: [] },
      });
      // Below the rule's amount no passkey is asked.
      const small = await ask('pay.send', { text: 'pay', amount: 10 });
      expect(
        await registry.confirm(small.confirmationId, { approvedBy: 'li', digest: small.digest }),
      ).toMatchObject({ ok: true });
    }),
  );

  it(
    'a bundle approved with one assertion over the bundle digest',
    withDesk(async ({ registry, enrol, sent }) => {
      const li = await enrol('li');
      const proposed = await registry.proposeBundle(
        [
          { tool: 'mail.send', input: { text: 'first' } },
          { tool: 'note.send', input: { text: 'second' } },
        ],
        { actor: 'agent-7' },
      );
      if (!proposed.ok) throw new Error(proposed.error);
      expect(
        await registry.confirmBundle(proposed.bundleId, { approvedBy: 'li', digest: proposed.digest }),
      ).toMatchObject({
        ok: false,
        code: 'PASSKEY_REQUIRED',
      });
      const made = await registry.passkeys.challenge({
        bundleId: proposed.bundleId,
        approver: 'li',
        digest: proposed.digest,
      });
      if (!made.ok) throw new Error(made.error);
      // A step's own challenge is not the bundle's.
      expect(
        await registry.passkeys.challenge({
          confirmationId: proposed.confirmations[0]?.confirmationId ?? '',
          approver: 'li',
          digest: proposed.confirmations[0]?.digest ?? '',
        }),
      ).toMatchObject({ ok: false, code: 'INVALID_OPTION' });
      const done = await registry.confirmBundle(proposed.bundleId, {
        approvedBy: 'li',
        digest: proposed.digest,
        passkey: li.sign(made.options),
      });
      expect(done).toMatchObject({ ok: true, steps: [0, 1] });
      await registry.sweep();
      expect(sent.map((s) => s.tool)).toEqual(['mail.send', 'note.send']);
      expect(await registry.audit.verify({ approvals: true })).toMatchObject({
        ok: true,
        approvals: { problems: [] },
      });
    }),
  );

  it(
    'a failed delivery is retried without a new assertion, and the log still verifies',
    withDesk(async ({ registry, ask, enrol, challenge, sent }) => {
      const li = await enrol('li');
      const asked = await ask('flaky.send', { text: 'again' });
      const failed = await registry.confirm(asked.confirmationId, {
        approvedBy: 'li',
        digest: asked.digest,
        passkey: li.sign(await challenge('li', asked)),
      });
      expect(failed).toMatchObject({ ok: false, code: 'DELIVERY_FAILED' });
      expect(
        await registry.retry(asked.confirmationId, { approvedBy: 'li', digest: asked.digest }),
      ).toMatchObject({
        ok: true,
      });
      expect(sent.map((s) => s.tool)).toEqual(['flaky.send']);
      expect(await registry.audit.verify({ approvals: true })).toMatchObject({
        ok: true,
        approvals: { checked: 1, problems: [] },
      });
    }),
  );

  it(
    'an edit is approved with an assertion over the edited digest; one over the stored digest proves nothing, and the log verifies',
    withDesk(async ({ registry, ask, enrol, sent }) => {
      const li = await enrol('li');
      const asked = await ask('memo.send', { text: 'Hello' });
      const edited = { text: 'Hello, Wu', amount: 0 };
      const preview = await registry.confirmations.checkEdit(asked.confirmationId, edited);
      if (!preview.ok) throw new Error(preview.error);
      expect(preview.digest).not.toBe(asked.digest);
      // Signed over the payload as stored, then sent with the edit: not what the person approved.
      const stale = await registry.passkeys.challenge({
        confirmationId: asked.confirmationId,
        approver: 'li',
        digest: asked.digest,
      });
      if (!stale.ok) throw new Error(stale.error);
      await expect(
        registry.confirm(asked.confirmationId, {
          approvedBy: 'li',
          digest: asked.digest,
          payload: edited,
          passkey: li.sign(stale.options),
        }),
      ).resolves.toMatchObject({ ok: false, code: 'PASSKEY_INVALID' });
      expect(sent).toEqual([]);
      // Signed over the edit the person previewed: delivered, exactly that payload.
      const fresh = await registry.passkeys.challenge({
        confirmationId: asked.confirmationId,
        approver: 'li',
        digest: preview.digest,
      });
      if (!fresh.ok) throw new Error(`${fresh.code}: ${fresh.error}`);
      await expect(
        registry.confirm(asked.confirmationId, {
          approvedBy: 'li',
          digest: asked.digest,
          payload: edited,
          passkey: li.sign(fresh.options),
        }),
      ).resolves.toMatchObject({ ok: true });
      expect(sent).toEqual([{ tool: 'memo.send', payload: edited, approvedBy: 'li' }]);
      await expect(registry.audit.verify({ approvals: true })).resolves.toMatchObject({ ok: true });
    }),
  );

  it('without passkeys configured: PASSKEY_REQUIRED saying to configure createPasskeys', async () => {
    const { store, close } = await open();
    try {
      const { ToolRegistry } = await import('graded-tools');
      const registry = new ToolRegistry({ confirmations: store });
      registry.register({
        name: 'mail.send',
        description: 'Send.',
        sideEffect: 'send',
        inputSchema: { type: 'object' },
        passkey: true,
        prepare: () => ({ text: 'x' }),
        deliver: () => ({ sent: true }),
      });
      const asked = await registry.invoke('mail.send', {}, { actor: 'a' });
      if (!asked.ok || asked.requiresConfirm !== true) throw new Error('not asked');
      const refused = await registry.confirm(asked.confirmationId, {
        approvedBy: 'li',
        digest: asked.digest,
      });
      expect(refused).toMatchObject({ ok: false, code: 'PASSKEY_REQUIRED' });
      expect(refused.ok ? '' : refused.error).toContain('createPasskeys');
      expect(await registry.passkeys.list({ approver: 'li' })).toMatchObject({
        ok: false,
        code: 'PASSKEY_REQUIRED',
      });
    } finally {
      await close();
    }
  });
}

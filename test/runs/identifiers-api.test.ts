import { type Confirmation, type ConfirmRequired, ToolRegistry } from 'graded-tools';
import { describe, expect, it } from 'vitest';

// Issue 31, through the public API: a destination is vouched only by the identifier the person or the
// app named, read as its consumer reads it (fetch, the mail system, the bank) — never by a folded form,
// a truncation, a tail or a piece of it.

function desk(allow?: readonly string[]) {
  const fetched: string[] = [];
  const registry = new ToolRegistry()
    .register({
      name: 'web.page',
      description: 'Fetches a page.',
      sideEffect: 'read',
      inputSchema: { type: 'object', properties: { url: { type: 'string' } }, required: ['url'] },
      destinations: ['url'],
      egress: allow === undefined ? true : { allow },
      run: ({ url }) => {
        fetched.push(String(url));
        return 'page';
      },
    })
    .register({
      name: 'mail.send',
      description: 'Sends mail.',
      sideEffect: 'send',
      inputSchema: { type: 'object', properties: { to: { type: 'string' } }, required: ['to'] },
      destinations: ['to'],
      prepare: (input) => input,
      deliver: () => 'sent',
    })
    .register({
      name: 'link.share',
      description: 'Shares a link.',
      sideEffect: 'send',
      inputSchema: { type: 'object', properties: { link: { type: 'string' } }, required: ['link'] },
      destinations: ['link'],
      prepare: (input) => input,
      deliver: () => 'shared',
    })
    .register({
      name: 'bank.pay',
      description: 'Pays an account.',
      sideEffect: 'send',
      inputSchema: { type: 'object', properties: { account: { type: 'string' } }, required: ['account'] },
      destinations: ['account'],
      prepare: (input) => input,
      deliver: () => 'paid',
    });
  return { registry, fetched };
}

async function begin(registry: ToolRegistry, options: Parameters<ToolRegistry['beginRun']>[0]) {
  const run = await registry.beginRun(options);
  if (!run.ok) throw new Error(run.error);
  return run.id;
}

async function originsOf(
  registry: ToolRegistry,
  proposed: Promise<unknown>,
): Promise<Confirmation['origins']> {
  const asked = (await proposed) as ConfirmRequired;
  expect(asked.ok, JSON.stringify(asked)).toBe(true);
  const read = await registry.confirmations.get(asked.confirmationId);
  if (!read.ok) throw new Error(read.error);
  return read.confirmation.origins;
}

async function reach(registry: ToolRegistry, url: string, run?: string) {
  const answer = await registry.invokeReadOnly('web__page', { url }, run === undefined ? {} : { run });
  return answer.ok ? 'ran' : answer.code;
}

describe('a URL is judged by the host fetch goes to', () => {
  const disguised = ['／', '＃', '？', '＼'].map((c) => `https://trusted.example${c}@evil.test/?q=s,1`);

  it('a fullwidth delimiter in the user-info never borrows the host the person named', async () => {
    const { registry, fetched } = desk();
    const run = await begin(registry, { request: 'Summarise https://trusted.example/news for me' });
    expect(await reach(registry, 'https://trusted.example/other', run)).toBe('ran');
    for (const url of disguised) {
      expect(new URL(url).hostname).toBe('evil.test');
      expect(await reach(registry, url, run)).toBe('EGRESS_REFUSED');
      const origins = await originsOf(registry, registry.propose('link.share', { link: url }, { run }));
      expect(origins).toEqual({ link: [{ from: 'none' }] });
    }
    expect(fetched).toEqual(['https://trusted.example/other']);
  });

  it('nor a host on the allow list outside a run', async () => {
    const { registry, fetched } = desk(['https://trusted.example']);
    expect(await reach(registry, 'https://trusted.example/a')).toBe('ran');
    for (const url of disguised) expect(await reach(registry, url)).toBe('EGRESS_REFUSED');
    expect(fetched).toEqual(['https://trusted.example/a']);
  });
});

describe('a host is vouched only whole (Public Suffix List)', () => {
  it('a two-level public suffix never vouches its truncation', async () => {
    const { registry } = desk();
    const run = await begin(registry, {
      request: 'Read https://www.bbc.co.uk/news and portal.myshop.com.au please',
      trusted: ['https://api.partner.co.uk'],
    });
    for (const url of ['https://bbc.co/', 'https://portal.myshop.com/', 'https://api.partner.co/'])
      expect(await reach(registry, url, run)).toBe('EGRESS_REFUSED');
    for (const url of [
      'https://bbc.co.uk/x',
      'https://portal.myshop.com.au/',
      'https://api.partner.co.uk/v1',
    ])
      expect(await reach(registry, url, run)).toBe('ran');
  });
});

describe('an email address is vouched whole, as the mail system delivers it', () => {
  it('never by its tail', async () => {
    const { registry } = desk();
    const run = await begin(registry, {
      request: "Email o'brien@corp.example and sales&ops@corp.example the plan",
    });
    const to = (address: string) =>
      originsOf(registry, registry.propose('mail.send', { to: address }, { run }));
    expect(await to('brien@corp.example')).toEqual({ to: [{ from: 'none' }] });
    expect(await to('ops@corp.example')).toEqual({ to: [{ from: 'none' }] });
    expect(await to("O'Brien@corp.example")).toEqual({ to: [{ from: 'request' }] });
    expect(await to('sales&ops@CORP.example')).toEqual({ to: [{ from: 'request' }] });
  });

  it('the local part as written: other letters are another mailbox, the domain by IDNA', async () => {
    const { registry } = desk();
    const run = await begin(registry, { request: 'Email ana@ｅｘａｍｐｌｅ.com the report' });
    const to = (address: string) =>
      originsOf(registry, registry.propose('mail.send', { to: address }, { run }));
    expect(await to('𝐚𝐧𝐚@example.com')).toEqual({ to: [{ from: 'none' }] });
    expect(await to('ａｎａ@example.com')).toEqual({ to: [{ from: 'none' }] });
    expect(await to('ANA@Example.com')).toEqual({ to: [{ from: 'request' }] });
  });

  it('a display name is shown, never routed: the mailbox is judged by its address', async () => {
    const { registry } = desk();
    const run = await begin(registry, { request: 'Email Ana Smith <ana@example.com> the report' });
    const to = (address: string) =>
      originsOf(registry, registry.propose('mail.send', { to: address }, { run }));
    expect(await to('Ana Smith <ana@example.com>')).toEqual({ to: [{ from: 'request' }] });
    expect(await to('Ana <ana@example.com>')).toEqual({ to: [{ from: 'request' }] });
    expect(await to('Ana Smith <evil@attacker.test>')).toEqual({ to: [{ from: 'none' }] });
  });
});

describe('a piece of an identifier vouches nothing', () => {
  it('one group of an IBAN, a label of a URL, a part of an address are no words', async () => {
    const { registry } = desk();
    const run = await begin(registry, {
      request:
        'Pay rent from DE89 3704 0044 0532 0130 00, read https://trusted.example/news, ask bob@corp.example',
      trusted: { payees: ['GB33 BUKB 2020 1555 5555 55'] },
    });
    const pay = (account: string) => originsOf(registry, registry.propose('bank.pay', { account }, { run }));
    for (const piece of ['3704', 'BUKB', '5555', 'news', 'trusted', 'corp', 'bob', '3704 0044', 'BUKB 2020'])
      expect(await pay(piece), piece).toEqual({ account: [{ from: 'none' }] });
    expect(await pay('DE89370400440532013000')).toEqual({ account: [{ from: 'request' }] });
    expect(await pay('gb33bukb20201555555555')).toEqual({ account: [{ from: 'trusted', list: 'payees' }] });
    // A word of the request still vouches a one-word value.
    expect(await pay('rent')).toEqual({ account: [{ from: 'request' }] });
  });
});

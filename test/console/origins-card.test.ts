import { createMemoryStore } from 'graded-tools';
import type { ConfirmationStore } from 'graded-tools/store';
import { pendingConfirmation } from 'graded-tools/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { type ConsoleFixture, consoleFixture } from './setup.js';

// Issue 24: a card's `originsText` is the stored `origins` in the person's words, a read tool named by
// its title where the registry knows it; a record written by another version or by hand never breaks it.

describe('a card says where each destination came from', () => {
  let f: ConsoleFixture;
  afterEach(() => f.close());
  let store: ConfirmationStore;
  const open = () => {
    store = createMemoryStore();
    return { store, close: () => {} };
  };
  const cardOf = async (id: string, locale = 'en') =>
    (await f.json(`/api/confirmations/${id}`, { person: 'lead-li', headers: { 'accept-language': locale } }))
      .body.confirmation;

  it('in words per field, tools by title (or name), the unvouched marked, origins kept as data too', async () => {
    f = consoleFixture(open);
    f.registry.register({
      name: 'inbox.read',
      title: 'Inbox',
      description: 'Reads the inbox.',
      sideEffect: 'read',
      inputSchema: { type: 'object', properties: {} },
      run: () => [],
    });
    const origins = {
      to: [
        { from: 'tool', tool: 'inbox.read' },
        { from: 'tool', tool: 'web.get' },
      ],
      cc: [{ from: 'request' }, { from: 'trusted' }],
      bcc: [{ from: 'none' }],
    } as const;
    const record = pendingConfirmation({ origins });
    await store.create(record);
    const card = await cardOf(record.id);
    expect(card.origins).toEqual(origins);
    expect(card.originsText).toEqual({
      heading: 'Where this came from',
      check: 'Check',
      caution: expect.stringMatching(/^Neither the person nor the app gave a value marked Check/),
      lines: [
        {
          field: 'to',
          text: 'appears only in what the agent read from Inbox (inbox.read) and web.get',
          unvouched: true,
        },
        {
          field: 'cc',
          text: "named in the person's request; one of the app's trusted values",
          unvouched: false,
        },
        {
          field: 'bcc',
          text: 'appears nowhere the agent read or was told: it may be made up',
          unvouched: true,
        },
      ],
    });
    const zh = await cardOf(record.id, 'zh-CN');
    expect(zh.originsText.lines.map((line: { text: string }) => line.text)).toEqual([
      '只出现在代理从 Inbox (inbox.read)和web.get 读取的内容中',
      '出现在用户的请求中；是应用信任的值之一',
      '没有出现在代理读取或被告知的任何内容中：可能是编造的',
    ]);
  });

  it('says nothing when every destination was vouched for but the words, and no caution', async () => {
    f = consoleFixture(open);
    const record = pendingConfirmation({ origins: { to: [{ from: 'request' }] } });
    await store.create(record);
    const card = await cardOf(record.id);
    expect(card.originsText).toEqual({
      heading: 'Where this came from',
      check: 'Check',
      lines: [{ field: 'to', text: "named in the person's request", unvouched: false }],
    });
  });

  it('says each value with its own origins, trusted lists by name, and counts values past ten', async () => {
    f = consoleFixture(open);
    const made = Array.from({ length: 11 }, (_, i) => ({
      value: `made${i}@nowhere.test`,
      origins: [{ from: 'none' as const }],
    }));
    const record = pendingConfirmation({
      origins: {
        to: [{ from: 'request' }, { from: 'trusted', list: 'payees' }, { from: 'none' }],
        iban: [{ from: 'trusted', list: 'payees' }],
      },
      originValues: {
        to: [
          { value: 'ana@example.com', origins: [{ from: 'request' }] },
          { value: 'bo@example.com', origins: [{ from: 'trusted', list: 'payees' }] },
          ...made,
        ],
        iban: [{ value: 'de89370400440532013000', origins: [{ from: 'trusted', list: 'payees' }] }],
      },
    });
    await store.create(record);
    const card = await cardOf(record.id);
    expect(card.originsText.lines).toEqual([
      ...made.slice(0, 10).map(({ value }) => ({
        field: 'to',
        value,
        text: `${value} — appears nowhere the agent read or was told: it may be made up`,
        unvouched: true,
      })),
      { field: 'to', text: 'and 3 more, 1 of them not vouched for', unvouched: true },
      {
        field: 'iban',
        value: 'de89370400440532013000',
        text: "de89370400440532013000 — one of the app's trusted values (payees)",
        unvouched: false,
      },
    ]);
    const zh = await cardOf(record.id, 'zh-CN');
    expect(zh.originsText.lines.slice(-2).map((line: { text: string }) => line.text)).toEqual([
      '另有 3 个，其中 1 个未经用户或应用担保',
      'de89370400440532013000 — 是应用信任的值之一（payees）',
    ]);
  });

  it('says origins were not recorded for a tool with destinations asked outside a run', async () => {
    f = consoleFixture(open);
    const record = pendingConfirmation({ originsOutsideRun: true });
    await store.create(record);
    expect((await cardOf(record.id)).originsText).toEqual({
      heading: 'Where this came from',
      check: 'Check',
      lines: [],
      notRecorded: 'not recorded (proposed outside an agent run)',
    });
    expect((await cardOf(record.id, 'zh-CN')).originsText.notRecorded).toBe('未记录（在代理运行之外提出）');
  });

  it("says a destination a person changed by editing is theirs, not the agent's recorded values", async () => {
    f = consoleFixture(open);
    const base = pendingConfirmation();
    const record = pendingConfirmation({
      origins: { '/to/0': [{ from: 'tool', tool: 'inbox.read' }], cc: [{ from: 'request' }] },
      originValues: {
        '/to/0': [{ value: 'mallory@evil.test', origins: [{ from: 'tool', tool: 'inbox.read' }] }],
        cc: [{ value: 'ana@example.com', origins: [{ from: 'request' }] }],
      },
      history: [
        ...base.history,
        {
          at: base.createdAt,
          status: 'pending',
          by: 'lead-2',
          approval: { count: 1, needed: 2 },
          edit: { fromDigest: 'a'.repeat(64), toDigest: 'b'.repeat(64), fields: ['to'] },
        },
      ],
    });
    await store.create(record);
    const card = await cardOf(record.id);
    expect(card.originsText.lines).toEqual([
      { field: '/to/0', text: 'set by an approver who edited it', unvouched: false },
      {
        field: 'cc',
        value: 'ana@example.com',
        text: "ana@example.com — named in the person's request",
        unvouched: false,
      },
    ]);
    expect(card.originsText.caution).toBeUndefined();
    expect((await cardOf(record.id, 'zh-CN')).originsText.lines[0].text).toBe('由编辑它的审批人设定');
  });

  it('draws a card whose stored origins are not the documented shape, showing only what it can read', async () => {
    f = consoleFixture(open);
    const odd = pendingConfirmation({
      origins: { to: [{ from: 'tool' }, { from: 'elsewhere' }, 'none'], cc: 'x' } as never,
    });
    const none = pendingConfirmation({ origins: 'not an object' as never });
    const empty = pendingConfirmation({ origins: {} });
    for (const record of [odd, none, empty]) await store.create(record);
    expect((await cardOf(odd.id)).originsText).toBeUndefined();
    expect((await cardOf(none.id)).originsText).toBeUndefined();
    expect((await cardOf(empty.id)).originsText).toBeUndefined();
    expect((await cardOf(odd.id)).status).toBe('pending');
  });
});

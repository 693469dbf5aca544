import { join } from 'node:path';
import { type ConfirmRequired, describeDecision, type InvokeEvent } from 'graded-tools';
import { createPostgresStore } from 'graded-tools/postgres';
import { createSqliteStore } from 'graded-tools/sqlite';
import type { ConfirmationStore } from 'graded-tools/store';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import {
  approveAs,
  DESK_AGENT,
  DRAFT_INSTRUCTIONS,
  FOLLOW_UP_INSTRUCTIONS,
  type PersonStep,
  rejectAs,
} from '../../examples/draft-desk.js';
import { createSupportDeskData, createSupportDeskRegistry } from '../../examples/support-desk-registry.js';
import { createDesk, type Desk, ranTools } from '../adapters/support/hostile-calls.js';
import { describePostgres, uniqueTable } from '../helpers/postgres.js';
import { tempDir } from '../helpers/temp-dir.js';
import { DRAFT_DRIVERS, FOLLOW_UP } from './support/draft-drivers.js';

const DRAFT = {
  conversationId: 'c-1001',
  text: 'Hi Ana, the duplicate charge on your March invoice is refunded within 5 days.',
};

/** What the person saw when asked: the stored record and the outbox at that moment. */
interface Asked {
  readonly pending: ConfirmRequired;
  readonly outboxAtDecision: number;
  readonly record: unknown;
}

/** A person step that notes what there was to see, then decides as `decide` does. */
function watching(desk: Desk, decide: PersonStep): { person: PersonStep; asked: Asked[] } {
  const asked: Asked[] = [];
  const person: PersonStep = async (pending) => {
    const record = await desk.registry.confirmations.get(pending.confirmationId);
    asked.push({ pending, outboxAtDecision: desk.data.outbox.length, record });
    return decide(pending);
  };
  return { person, asked };
}

describe.each(DRAFT_DRIVERS)('from draft to decision: $framework', (driver) => {
  it('proposes the draft, delivers it only on the confirm, and the agent hears "sent" next turn', async () => {
    const desk = createDesk();
    const { person, asked } = watching(desk, approveAs(desk.registry, 'person:li'));
    const { result, seen } = await driver.run({ desk, person, draft: DRAFT });

    expect(result).toMatchObject({ ok: true, draft: DRAFT, followUp: FOLLOW_UP });
    if (!result.ok) return;
    // Proposed by the agent, with the app's why, link and reference; nothing went out before the person.
    expect(asked).toHaveLength(1);
    expect(asked[0]?.outboxAtDecision).toBe(0);
    expect(asked[0]?.record).toMatchObject({
      ok: true,
      confirmation: {
        status: 'pending',
        tool: 'message.send',
        actor: DESK_AGENT,
        ref: 'c-1001',
        note: expect.stringContaining('c-1001'),
        links: [{ label: 'Conversation c-1001', url: 'https://desk.example/c/c-1001' }],
      },
    });
    // Delivered once, exactly the draft, to the conversation's customer.
    expect(desk.data.outbox).toEqual([
      { to: 'ana@example.com', text: DRAFT.text, confirmationId: asked[0]?.pending.confirmationId },
    ]);
    expect(result.confirmation.status).toBe('delivered');
    expect(result.decisionText).toBe(describeDecision(result.confirmation, 'en'));
    // The decision is the next turn's last user message, and the agent answered it.
    expect(seen.calls).toBe(3);
    expect(seen.userTexts(2).at(-1)).toBe(result.decisionText);
    expect(seen.userTexts(1)).not.toContain(result.decisionText);
    expect(seen.everything(1)).toContain(DRAFT_INSTRUCTIONS);
    expect(seen.everything(2)).toContain(FOLLOW_UP_INSTRUCTIONS);
  });

  it('never lists the send tool, and answers a call to it exactly as a name nobody registered', async () => {
    const desk = createDesk();
    const { person } = watching(desk, approveAs(desk.registry, 'person:li'));
    const { seen } = await driver.run({ desk, person, draft: DRAFT });

    expect(seen.toolLists).toHaveLength(3);
    for (const [index, list] of seen.toolLists.entries()) {
      const extra = index < 2 ? driver.extraDraftTools : [];
      expect([...list].sort()).toEqual(['kb__search', 'session__fetch', ...extra].sort());
    }
    const send = seen.shownFor('send');
    const madeUp = seen.shownFor('made-up');
    expect(send).toMatch(/message__send/);
    expect(send?.replaceAll('message__send', '<name>')).toBe(
      madeUp?.replaceAll('delete_everything', '<name>'),
    );
    // The reads ran and answered; the send ran only through the person's confirm.
    expect(JSON.parse(seen.shownFor('read') ?? '')).toMatchObject({ customer: 'ana@example.com' });
    expect(ranTools(desk.events.filter((event) => event.tool !== 'message.send'))).toEqual([
      'session.fetch',
      'kb.search',
    ]);
    expect(desk.data.outbox).toHaveLength(1);
  });

  it("asks for the draft in the send tool's input shape, and nothing the model reads names it or propose", async () => {
    const desk = createDesk();
    const { person } = watching(desk, approveAs(desk.registry, 'person:li'));
    const { seen } = await driver.run({ desk, person, draft: DRAFT });

    const input = desk.registry.get('message.send')?.inputSchema;
    expect(seen.draftShape).toMatchObject({
      type: 'object',
      properties: input?.properties,
      required: input?.required,
    });
    for (let call = 0; call < seen.calls; call += 1) {
      expect(seen.everything(call)).toContain('session__fetch');
      expect(seen.everything(call)).not.toMatch(/propose|message\.send/i);
    }
    // Before the model made the name up itself, nothing it read had it.
    expect(seen.everything(0)).not.toContain('message__send');
  });

  it('a reject delivers nothing, and the agent hears the reason in its locale', async () => {
    const desk = createDesk();
    const reason = 'Wrong customer: this is about the April invoice.';
    const { person, asked } = watching(desk, rejectAs(desk.registry, 'person:li', reason));
    const { result, seen } = await driver.run({ desk, person, draft: DRAFT, locale: 'zh-CN' });

    expect(result).toMatchObject({ ok: true, followUp: FOLLOW_UP });
    if (!result.ok) return;
    expect(asked).toHaveLength(1);
    expect(result.confirmation.status).toBe('rejected');
    expect(desk.data.outbox).toEqual([]);
    expect(result.decisionText).toBe(describeDecision(result.confirmation, 'zh-CN'));
    // The reason reaches the agent as the person wrote it (the sentence around it adds its own full stop).
    expect(result.decisionText).toContain(reason.replace(/\.$/, ''));
    expect(result.decisionText).not.toBe(describeDecision(result.confirmation, 'en'));
    expect(seen.userTexts(2).at(-1)).toBe(result.decisionText);
  });
});

describe.each(DRAFT_DRIVERS)('an agent that stops waiting: $framework', (driver) => {
  it('ends the loop without a next turn, and the request stays pending for the person', async () => {
    const desk = createDesk();
    const stop = new AbortController();
    // Nobody decides yet; the app gives up waiting (a shutdown, a cancelled run).
    const { person, asked } = watching(desk, async () => stop.abort());
    const { result, seen } = await driver.run({ desk, person, draft: DRAFT, signal: stop.signal });

    expect(result).toMatchObject({ ok: false, stage: 'wait', code: 'ABORTED' });
    expect(seen.calls).toBe(2);
    expect(desk.data.outbox).toEqual([]);
    const id = asked[0]?.pending.confirmationId ?? '';
    expect(await desk.registry.confirmations.get(id)).toMatchObject({
      ok: true,
      confirmation: { status: 'pending', ref: 'c-1001' },
    });
    // A person can still decide later; it is delivered then, as the agent was never holding it.
    const pending = asked[0]?.pending;
    if (pending === undefined) throw new Error('the person was never asked');
    await approveAs(desk.registry, 'person:li')(pending);
    expect(desk.data.outbox.map((sent) => sent.text)).toEqual([DRAFT.text]);
  });
});

describe.each(DRAFT_DRIVERS.filter((driver) => driver.extraDraftTools.length === 0))(
  'a draft that does not fit the send tool: $framework',
  (driver) => {
    // LangChain is left out: its responseFormat checks the draft first and asks the model again.
    it('is refused by propose: nothing is stored, asked or delivered, and the loop stops', async () => {
      const desk = createDesk();
      const { person, asked } = watching(desk, approveAs(desk.registry, 'person:li'));
      const { result, seen } = await driver.run({ desk, person, draft: { conversationId: 'c-1001' } });

      expect(result).toMatchObject({ ok: false, stage: 'propose', code: 'INVALID_INPUT' });
      expect(asked).toEqual([]);
      expect(desk.data.outbox).toEqual([]);
      const stored = await desk.registry.confirmations.list({});
      expect(stored).toMatchObject({ ok: true, confirmations: [] });
      expect(seen.calls).toBe(2);
    });
  },
);

/** The agent's instance and the person's, two registries over one shared store (two processes in an app). */
function twoInstances(agentStore: ConfirmationStore, personStore: ConfirmationStore) {
  const agentData = createSupportDeskData();
  const events: InvokeEvent[] = [];
  const agent: Desk = {
    data: agentData,
    events,
    registry: createSupportDeskRegistry(agentData, {
      confirmations: agentStore,
      onEvent: (event) => void (event.type === 'invoke' && events.push(event)),
    }),
  };
  const personData = createSupportDeskData();
  const person = createSupportDeskRegistry(personData, { confirmations: personStore });
  return { agent, person, personData };
}

/** Runs one confirmed and one rejected draft per framework with the person on the other instance. */
async function decideElsewhere(agentStore: ConfirmationStore, personStore: ConfirmationStore) {
  for (const driver of DRAFT_DRIVERS) {
    const { agent, person, personData } = twoInstances(agentStore, personStore);
    const sent = await driver.run({ desk: agent, person: approveAs(person, 'person:li'), draft: DRAFT });
    expect(sent.result, driver.framework).toMatchObject({ ok: true, confirmation: { status: 'delivered' } });
    // Delivered by the instance that confirmed; the agent's instance heard it and delivered nothing.
    expect(personData.outbox.map((entry) => entry.text)).toEqual([DRAFT.text]);
    expect(agent.data.outbox).toEqual([]);
    if (sent.result.ok) expect(sent.seen.userTexts(2).at(-1)).toBe(sent.result.decisionText);

    const reason = 'Not this customer.';
    const rejected = await driver.run({
      desk: agent,
      person: rejectAs(person, 'person:li', reason),
      draft: DRAFT,
    });
    expect(rejected.result, driver.framework).toMatchObject({
      ok: true,
      confirmation: { status: 'rejected' },
    });
    expect(rejected.seen.userTexts(2).at(-1)).toContain(reason);
    expect(personData.outbox).toHaveLength(1);
  }
}

describe('from draft to decision with the person on another instance', () => {
  const dir = tempDir();
  afterAll(() => dir.remove());

  it('hears the decision through a shared SQLite file, in every framework', async () => {
    const path = join(dir.path, 'drafts.db');
    const agentStore = createSqliteStore({ path, watchIntervalMs: 20 });
    const personStore = createSqliteStore({ path });
    try {
      await decideElsewhere(agentStore, personStore);
    } finally {
      agentStore.close();
      personStore.close();
    }
  });
});

const table = uniqueTable('gt_drafts');
let admin: pg.Pool | undefined;
afterAll(async () => {
  if (admin === undefined) return;
  await admin.query(`DROP TABLE IF EXISTS ${table}`);
  await admin.end();
});

await describePostgres('from draft to decision on PostgreSQL', (url) => {
  admin = new pg.Pool({ connectionString: url, max: 1 });
  it('hears the decision another instance made through LISTEN/NOTIFY, in every framework', async () => {
    const agentStore = createPostgresStore({ connectionString: url, table });
    await agentStore.migrate();
    const personStore = createPostgresStore({ connectionString: url, table });
    try {
      await decideElsewhere(agentStore, personStore);
    } finally {
      await agentStore.close();
      await personStore.close();
    }
  });
});

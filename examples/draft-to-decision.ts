// From draft to decision: the whole loop between an agent and a person, in one file.
//
// 1. The agent reads through read tools (the only tools the model is ever shown) and ends its turn with
//    a draft — its final answer, never a call to a send tool.
// 2. The app proposes the draft: `registry.propose` stores a pending confirmation with why the agent
//    asks (`note`), where to read more (`links`) and the app's own reference (`ref`). Nothing is sent.
// 3. A person sees exactly what would go out, and what confirming does (the tool's `effect`), and
//    confirms it (with the digest of what they saw) or rejects it with a reason.
// 4. The agent, waiting in `registry.confirmations.waitFor`, hears the outcome in words
//    (`describeDecision`) for its next turn.
//
// The model's turns are scripted, and the clock is fixed, so every run prints the same lines:
//   npx tsx examples/draft-to-decision.ts
import { defineTool, describeDecision, describeEffect, ToolRegistry } from 'graded-tools';

const conversations = new Map([
  [
    'c-4411',
    { customer: 'ana@example.com', messages: ['Where is my data export?', 'I asked yesterday too.'] },
  ],
  ['c-4412', { customer: 'li@example.com', messages: ['Please close my account.'] }],
]);
const articles = [
  { id: 'kb-7', title: 'Exporting your data', body: 'Settings → Data → Export sends a link.' },
];
const outbox: { to: string; text: string; confirmationId: string }[] = [];

// A fixed clock (advanced by hand below), so the printed times are the same on every run.
let clock = Date.parse('2026-12-02T09:00:00.000Z');
const registry = new ToolRegistry({ now: () => clock, confirmationTtlMs: 30 * 60_000 });

registry.register(
  defineTool({
    name: 'conversation.read',
    description: 'Read a support conversation: the customer and every message, oldest first.',
    sideEffect: 'read',
    inputSchema: {
      type: 'object',
      properties: { conversationId: { type: 'string' } },
      required: ['conversationId'],
      additionalProperties: false,
    },
    run: (input: { conversationId: string }) => {
      const conversation = conversations.get(input.conversationId);
      if (conversation === undefined) throw new Error(`no conversation ${input.conversationId}`);
      return conversation;
    },
  }),
);
registry.register(
  defineTool({
    name: 'kb.search',
    description: 'Search help-center articles by words in their title or body.',
    sideEffect: 'read',
    inputSchema: {
      type: 'object',
      properties: { query: { type: 'string', minLength: 1 } },
      required: ['query'],
      additionalProperties: false,
    },
    run: (input: { query: string }) =>
      articles.filter((article) => `${article.title} ${article.body}`.toLowerCase().includes(input.query)),
  }),
);
registry.register(
  defineTool({
    name: 'message.send',
    title: 'Reply to the customer',
    description: 'Email a reply to the customer of a conversation.',
    sideEffect: 'send',
    scopes: ['desk'],
    // What confirming does, in words for the approver: {to} is the payload's `to`.
    effect: 'Emails the customer at {to}',
    inputSchema: {
      type: 'object',
      properties: {
        conversationId: { type: 'string' },
        text: { type: 'string', minLength: 1, maxLength: 5_000 },
      },
      required: ['conversationId', 'text'],
      additionalProperties: false,
    },
    prepare: (input: { conversationId: string; text: string }) => {
      const conversation = conversations.get(input.conversationId);
      if (conversation === undefined) throw new Error(`no conversation ${input.conversationId}`);
      return { to: conversation.customer, text: input.text };
    },
    deliver: (payload, { confirmationId }) => {
      // Hand confirmationId to your mail API as its idempotency key.
      outbox.push({ ...payload, confirmationId });
      return { queued: true };
    },
  }),
);

/** Who the agent is, and the gates it runs under. */
const agent = { actor: 'agent:desk-bot', scope: 'desk' } as const;
/** A model turn: a call to a tool it was shown, or its final answer — a draft in the send tool's input shape. */
type Turn =
  | { readonly call: string; readonly arguments: string }
  | { readonly draft: { conversationId: string; text: string } };

/** The agent's run: its tool calls go through the model's exit; its draft is what the run returns. */
async function runAgent(turns: readonly Turn[]): Promise<{ conversationId: string; text: string }> {
  console.log(
    `  the model is shown: ${registry
      .toFunctionSchemas(agent)
      .map((tool) => tool.name)
      .join(', ')}`,
  );
  for (const turn of turns) {
    if ('draft' in turn) {
      console.log(`  the model's draft: ${JSON.stringify(turn.draft)}`);
      return turn.draft;
    }
    const result = await registry.invokeReadOnly(turn.call, turn.arguments, agent);
    console.log(`  model calls ${turn.call}(${turn.arguments}) → ${result.ok ? 'ok' : result.code}`);
  }
  throw new Error('the scripted model ended without a draft');
}

/** What the person deciding is shown: the tool's title and effect, why the agent asks, the payload. */
async function showToPerson(id: string): Promise<string | undefined> {
  const found = await registry.confirmations.get(id);
  if (!found.ok) return undefined;
  const { confirmation } = found;
  const tool = registry.confirmations.tool(confirmation.tool);
  const effect = tool?.effect === undefined ? '' : ` — ${describeEffect(tool.effect, confirmation.payload)}`;
  console.log(`  the person sees: "${tool?.title ?? confirmation.tool}"${effect}`);
  console.log(`    asked by ${confirmation.actor}: ${confirmation.note ?? '(no note)'}`);
  for (const link of confirmation.links ?? []) console.log(`    ${link.label}: ${link.url}`);
  console.log(`    payload: ${JSON.stringify(confirmation.payload)}`);
  return confirmation.digest;
}

type Decide = (id: string, digest: string) => Promise<void>;
const confirmAs =
  (approvedBy: string): Decide =>
  async (id, digest) => {
    const confirmed = await registry.confirm(id, { approvedBy, digest });
    console.log(
      `  ${approvedBy} confirms → ${confirmed.ok ? confirmed.confirmation.status : confirmed.code}`,
    );
  };
const rejectAs =
  (rejectedBy: string, reason: string): Decide =>
  async (id) => {
    const rejected = await registry.reject(id, { rejectedBy, reason });
    console.log(`  ${rejectedBy} rejects → ${rejected.ok ? rejected.confirmation.status : rejected.code}`);
  };
const nobodyDecides: Decide = async () => {
  clock += 31 * 60_000; // half an hour goes by
  await registry.expireDue();
  console.log('  nobody decides; 31 minutes later the sweep expires it');
};

/** One loop: the agent drafts, the app proposes, a person decides, the agent hears back. */
async function draftToDecision(
  title: string,
  turns: readonly Turn[],
  why: string,
  ref: string,
  decide: Decide,
) {
  console.log(`\n== ${title}`);
  const draft = await runAgent(turns);
  const asked = await registry.propose('message.send', draft, {
    ...agent,
    note: why,
    links: [{ label: `Conversation ${ref}`, url: `https://desk.example/c/${ref}` }],
    ref,
  });
  if (!asked.ok || !asked.requiresConfirm) {
    console.log(`  propose failed: ${asked.ok ? 'not a send' : asked.code}`);
    return;
  }
  console.log(`  proposed: pending until ${asked.expiresAt}; sent so far: ${outbox.length}`);

  // The agent's run waits for the decision (a durable run would wait in its workflow engine instead).
  const waiting = registry.confirmations.waitFor(asked.confirmationId, { timeoutMs: 60_000 });
  const digest = await showToPerson(asked.confirmationId);
  clock += 90_000; // the person takes a minute and a half
  await decide(asked.confirmationId, digest ?? '');

  const decided = await waiting;
  if (!decided.ok) {
    console.log(`  the wait ended: ${decided.code}`);
    return;
  }
  console.log(`  back to the agent: ${describeDecision(decided.confirmation, 'en')}`);
  console.log(`  回给智能体：${describeDecision(decided.confirmation, 'zh-CN')}`);
}

await draftToDecision(
  '1. A reply the person confirms',
  [
    { call: 'conversation__read', arguments: '{"conversationId":"c-4411"}' },
    { call: 'kb__search', arguments: '{"query":"export"}' },
    { draft: { conversationId: 'c-4411', text: 'Settings → Data → Export sends you a download link.' } },
  ],
  'The customer asked twice for the export; this answers with where to find it.',
  'c-4411',
  confirmAs('lead-li'),
);

await draftToDecision(
  '2. A reply the person rejects, with a reason',
  [
    { call: 'conversation__read', arguments: '{"conversationId":"c-4412"}' },
    { draft: { conversationId: 'c-4412', text: 'Your account is closed.' } },
  ],
  'The customer asked to close the account.',
  'c-4412',
  rejectAs('lead-li', 'We close accounts only after the customer confirms by email'),
);

await draftToDecision(
  '3. A reply nobody decides in time',
  [{ draft: { conversationId: 'c-4411', text: 'Following up on your export.' } }],
  'A follow-up on yesterday’s question.',
  'c-4411',
  nobodyDecides,
);

console.log('\n== 4. What the agent can never do');
const modelSend = await registry.invokeReadOnly(
  'message__send',
  '{"conversationId":"c-4411","text":"Sent without asking"}',
  agent,
);
console.log(
  `  the model calls message__send → ${modelSend.ok ? 'ran' : `${modelSend.code}: ${modelSend.error}`}`,
);
const agentInvoke = await registry.invoke(
  'message.send',
  { conversationId: 'c-4411', text: 'Sent without asking' },
  { ...agent, autonomous: true },
);
console.log(`  the agent's run invokes message.send → ${agentInvoke.ok ? 'ran' : agentInvoke.code}`);
if (!agentInvoke.ok) console.log(`    ${agentInvoke.error}`);
console.log(`\nMessages sent: ${outbox.length}, to ${outbox.map((message) => message.to).join(', ')}.`);

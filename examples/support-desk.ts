// `npm start`: a support-desk agent walked through in the terminal. Nothing here talks to a real
// model: the model's turn is scripted, so every run shows the same thing, including what the model
// tries and is refused.
import {
  definePlan,
  describeDecision,
  formatAccessReport,
  type InvokeResult,
  type RegistryEvent,
  runPlan,
} from 'graded-tools';
import { createSupportDeskData, createSupportDeskRegistry } from './support-desk-registry.js';

const audit: RegistryEvent[] = [];
const data = createSupportDeskData();
const registry = createSupportDeskRegistry(data, { onEvent: (event) => void audit.push(event) });

/** The agent runs in the desk scope with the knowledge base switched on for this tenant. */
const agentContext = { scope: 'desk', flags: { kb: true } };

function heading(title: string): void {
  console.log(`\n== ${title} ${'='.repeat(Math.max(0, 72 - title.length))}`);
}

function show(result: InvokeResult): string {
  if (!result.ok) return `refused/failed  ${result.code}: ${result.error.split('\n').join(' ')}`;
  if (result.requiresConfirm)
    return `needs a person  payload to confirm: ${JSON.stringify(result.confirmPayload)}`;
  return `ok              ${JSON.stringify(result.data)}`;
}

heading('1. The tools this app has');
for (const tool of registry.list()) {
  const gates = [
    tool.featureFlag && `flag ${tool.featureFlag}`,
    tool.scopes && `scopes ${tool.scopes.join(',')}`,
  ]
    .filter(Boolean)
    .join(', ');
  console.log(
    `  ${tool.name.padEnd(14)} ${tool.sideEffect.padEnd(6)} ${tool.title}${gates ? `  (${gates})` : ''}`,
  );
}

heading('2. What the model is shown (scope desk, flag kb granted)');
for (const fn of registry.toFunctionSchemas(agentContext)) {
  console.log(`  ${fn.name.padEnd(14)} ${fn.description}`);
}
console.log('  (ticket.submit writes and message.send sends: the model is never shown either.)');

heading('3. Access report: who may reach what, and why not');
console.log(
  formatAccessReport(registry.accessReport(agentContext))
    .split('\n')
    .map((line) => `  ${line}`)
    .join('\n'),
);

heading('4. A fixed, human-written plan: "what is this conversation asking"');
const whatIsAsked = definePlan<{ conversationId?: string }>({
  name: 'what-is-this-conversation-asking',
  steps: [
    {
      tool: 'session.fetch',
      buildInput: ({ seed }) => (seed.conversationId ? { conversationId: seed.conversationId } : undefined),
    },
    {
      tool: 'kb.search',
      buildInput: ({ byTool }) => {
        const session = byTool['session.fetch'];
        if (!session?.ok || session.requiresConfirm) return undefined;
        const { messages } = session.data as { messages: string[] };
        return { query: messages.join(' '), limit: 2 };
      },
    },
  ],
});
for (const seed of [{ conversationId: 'c-1001' }, {}]) {
  const result = await runPlan(whatIsAsked, seed, { registry, ...agentContext });
  console.log(`  seed ${JSON.stringify(seed)} → ok=${result.ok}`);
  for (const step of result.steps) {
    console.log(
      `    step ${step.seq} ${step.tool.padEnd(14)} ${step.status}${step.result ? `  ${show(step.result)}` : ''}`,
    );
  }
}

heading('5. A scripted model turn, through the model exit');
const modelTurn = [
  { name: 'kb__search', arguments: '{"query":"refund duplicate charge"}', why: 'a real read tool' },
  {
    name: 'ticket__submit',
    arguments: '{"conversationId":"c-1001","summary":"refund"}',
    why: 'hallucinated: a write tool',
  },
  { name: 'kb__search', arguments: '{"query": "refund', why: 'malformed JSON arguments' },
  { name: 'kb__search', arguments: '{"q":"refund"}', why: 'arguments that fail the schema' },
  {
    name: 'message__send',
    arguments: '{"conversationId":"c-1001","text":"Refunded!"}',
    why: 'the wire name of a send tool',
  },
];
for (const call of modelTurn) {
  const result = await registry.invokeReadOnly(call.name, call.arguments, agentContext);
  console.log(`  ${call.name}(${call.arguments})  — ${call.why}`);
  console.log(`    → ${show(result)}`);
}
console.log('  The write and send calls got the same answer as a name that does not exist.');

heading('6. The agent drafts a reply, the app proposes it, a person confirms it');
// The agent's final answer is a draft in message.send's input shape: never a call to the send tool.
const draft = {
  conversationId: 'c-1001',
  text: 'We refunded the duplicate charge; it will show within 5 days.',
};
const deskBot = { ...agentContext, actor: 'agent:desk-bot' };
// Its run may not send, not even through invoke: an autonomous caller is refused and told to propose.
const agentInvoke = await registry.invoke('message.send', draft, { ...deskBot, autonomous: true });
console.log(`  invoke from the agent's run → ${show(agentInvoke)}`);
const proposal = await registry.propose('message.send', draft, {
  ...deskBot,
  note: 'The customer asked twice about the duplicate charge; kb-1 says refunds show within 5 days.',
  links: [{ label: 'Conversation c-1001', url: 'https://desk.example/c/c-1001' }],
  ref: 'c-1001',
});
console.log(`  propose  → ${show(proposal)}`);
console.log(
  `  Messages actually sent so far: ${data.outbox.length} (delivery waits for the person to confirm).`,
);
if (proposal.ok && proposal.requiresConfirm) {
  const id = proposal.confirmationId;
  console.log(`  confirmation ${id.slice(0, 8)}…  digest ${proposal.digest.slice(0, 12)}…`);
  // The agent's run waits for the outcome while a person decides.
  const waiting = registry.confirmations.waitFor(id, { timeoutMs: 60_000 });
  const approval = { approvedBy: 'lead-li', digest: proposal.digest, scope: 'desk' };
  // A double click: two confirms race; exactly one delivers.
  const [first, second] = await Promise.all([registry.confirm(id, approval), registry.confirm(id, approval)]);
  for (const result of [first, second]) {
    console.log(
      `  confirm  → ${result.ok ? `delivered ${JSON.stringify(result.data)}` : `${result.code}: ${result.error}`}`,
    );
  }
  const decided = await waiting;
  console.log(
    `  back to the agent: ${decided.ok ? describeDecision(decided.confirmation, 'en') : decided.code}`,
  );
}
console.log(`  Messages actually sent: ${data.outbox.length}.`);

heading('7. The audit log (the real reasons, which the model never sees)');
for (const event of audit) {
  if (event.type === 'invoke') {
    const code = event.code ? ` ${event.code}` : '';
    console.log(`  ${event.caller.padEnd(10)} ${event.tool.padEnd(14)} ${event.outcome}${code}`);
  } else if (event.type === 'confirmation') {
    console.log(
      `  ${''.padEnd(10)} ${event.tool.padEnd(14)} confirmation ${event.action}${event.by ? ` by ${event.by}` : ''}`,
    );
  }
}
console.log(`\nTickets written: ${data.tickets.length}. Messages sent: ${data.outbox.length}.`);
console.log(
  '\nTo see and decide confirmations like these in a browser, run `npm run console`: the approvals console at http://127.0.0.1:3000.',
);

import { defineTool, type RegistryOptions, ToolRegistry } from 'graded-tools';

/** A tiny support desk's data: what the tools read and change. */
export interface SupportDeskData {
  readonly conversations: Map<string, { customer: string; messages: string[] }>;
  readonly articles: { id: string; title: string; body: string }[];
  readonly tickets: { id: string; conversationId: string; summary: string }[];
  readonly outbox: { to: string; text: string; confirmationId: string }[];
}

/** Fresh sample data for each registry, so examples and tests never share state. */
export function createSupportDeskData(): SupportDeskData {
  return {
    conversations: new Map([
      [
        'c-1001',
        {
          customer: 'ana@example.com',
          messages: ['Hi, I was charged twice for my March invoice.', 'Can you refund the extra charge?'],
        },
      ],
      ['c-1002', { customer: 'li@example.com', messages: ['How do I export my data?'] }],
    ]),
    articles: [
      {
        id: 'kb-1',
        title: 'Refunds for duplicate charges',
        body: 'Duplicate charges are refunded within 5 days.',
      },
      { id: 'kb-2', title: 'Exporting your data', body: 'Settings → Data → Export creates a ZIP file.' },
      { id: 'kb-3', title: 'Changing your invoice address', body: 'Billing → Address.' },
    ],
    tickets: [],
    outbox: [],
  };
}

/**
 * The support desk of the examples: `session.fetch` (read), `kb.search` (read, behind the `kb` feature
 * flag), `ticket.submit` (write) and `message.send` (send, only in the `desk` scope).
 */
export function createSupportDeskRegistry(
  data: SupportDeskData = createSupportDeskData(),
  options: RegistryOptions = {},
): ToolRegistry {
  const registry = new ToolRegistry(options);

  registry.register(
    defineTool({
      name: 'session.fetch',
      title: 'Fetch a conversation',
      description: 'Fetch a support conversation by id: the customer and every message, oldest first.',
      sideEffect: 'read',
      inputSchema: {
        type: 'object',
        properties: { conversationId: { type: 'string', description: 'The conversation id, like c-1001.' } },
        required: ['conversationId'],
        additionalProperties: false,
      },
      run: (input: { conversationId: string }) => {
        const conversation = data.conversations.get(input.conversationId);
        if (conversation === undefined) throw new Error(`no conversation ${input.conversationId}`);
        return { conversationId: input.conversationId, ...conversation };
      },
    }),
  );

  registry.register(
    defineTool({
      name: 'kb.search',
      title: 'Search the knowledge base',
      description:
        'Search help-center articles. Returns up to `limit` articles whose title or body match the query.',
      sideEffect: 'read',
      featureFlag: 'kb',
      inputSchema: {
        type: 'object',
        properties: {
          query: { type: 'string', minLength: 1, description: 'Words to look for.' },
          limit: {
            type: 'integer',
            minimum: 1,
            maximum: 10,
            description: 'At most this many articles (default 3).',
          },
        },
        required: ['query'],
        additionalProperties: false,
      },
      run: (input: { query: string; limit?: number }) => {
        const words = input.query.toLowerCase().split(/\W+/).filter(Boolean);
        const score = (text: string) => words.filter((word) => text.toLowerCase().includes(word)).length;
        return data.articles
          .map((article) => ({ article, score: score(`${article.title} ${article.body}`) }))
          .filter((hit) => hit.score > 0)
          .sort((a, b) => b.score - a.score)
          .slice(0, input.limit ?? 3)
          .map((hit) => hit.article);
      },
    }),
  );

  registry.register(
    defineTool({
      name: 'ticket.submit',
      title: 'Submit a ticket',
      description: 'Open a ticket for a conversation with a one-line summary.',
      sideEffect: 'write',
      inputSchema: {
        type: 'object',
        properties: { conversationId: { type: 'string' }, summary: { type: 'string', minLength: 3 } },
        required: ['conversationId', 'summary'],
        additionalProperties: false,
      },
      run: (input: { conversationId: string; summary: string }) => {
        const ticket = { id: `t-${data.tickets.length + 1}`, ...input };
        data.tickets.push(ticket);
        return ticket;
      },
    }),
  );

  registry.register(
    defineTool({
      name: 'message.send',
      title: 'Send a message to the customer',
      description: 'Email the customer of a conversation.',
      sideEffect: 'send',
      scopes: ['desk'],
      // What confirming does, for the person deciding: {to} is the payload's `to`.
      effect: 'Emails the customer at {to}',
      inputSchema: {
        type: 'object',
        properties: { conversationId: { type: 'string' }, text: { type: 'string', minLength: 1 } },
        required: ['conversationId', 'text'],
        additionalProperties: false,
      },
      prepare: (input: { conversationId: string; text: string }) => {
        const conversation = data.conversations.get(input.conversationId);
        if (conversation === undefined) throw new Error(`no conversation ${input.conversationId}`);
        return { to: conversation.customer, text: input.text };
      },
      // The person confirming may reword the text (not the recipient); the edit must still pass this.
      payloadSchema: {
        type: 'object',
        properties: { to: { type: 'string' }, text: { type: 'string', minLength: 1, maxLength: 5_000 } },
        required: ['to', 'text'],
        additionalProperties: false,
      },
      editable: ['text'],
      deliver: (payload, approval) => {
        data.outbox.push({ ...payload, confirmationId: approval.confirmationId });
        return { delivered: true, to: payload.to };
      },
    }),
  );

  return registry;
}

import { type RegistryOptions, type Rule, ToolRegistry } from 'graded-tools';

/** A finance desk's books: what the tools read and change, and what went out. */
export interface FinanceDeskData {
  readonly customers: Map<string, { name: string; email: string }>;
  readonly invoices: Map<string, { customer: string; amount: number; charged: number; disputed: boolean }>;
  readonly refunds: { customer: string; amount: number; invoice: string; confirmationId: string }[];
  readonly outbox: { to: string; subject: string; text: string; confirmationId: string }[];
}

/** Fresh sample books for each registry, so the example and its tests never share state. */
export function createFinanceDeskData(): FinanceDeskData {
  return {
    customers: new Map([
      ['cus-42', { name: 'Ana Li', email: 'ana@example.com' }],
      ['cus-43', { name: 'Bo Chen', email: 'bo@example.com' }],
    ]),
    invoices: new Map([
      // Ana was charged twice for INV-1001: 150 EUR too much.
      ['INV-1001', { customer: 'cus-42', amount: 150, charged: 300, disputed: false }],
      ['INV-1002', { customer: 'cus-43', amount: 80, charged: 80, disputed: false }],
    ]),
    refunds: [],
    outbox: [],
  };
}

/** The rules a finance team writes for refunds: two finance approvers over 100 EUR, 500 EUR a day per customer. */
export const REFUND_RULES: readonly Rule[] = [
  { name: 'two-from-finance', when: 'input.amount > 100', approvals: 2, approverFlags: ['finance'] },
  {
    name: 'daily-cap-per-customer',
    limit: { sum: 'input.amount', max: 500, per: 'day', by: 'input.customer', count: 'delivered' },
  },
];

/** How long a confirmed refund waits before it goes out: the undo window. */
export const REFUND_HOLD_MS = 60_000;

/**
 * The finance desk: `invoice.get` and `customer.get` (reads), `invoice.mark_disputed` (a write the
 * agent proposes), `refund.send` (a send with the rules above and an undo window) and `email.send` (a
 * send whose recipient is a destination: its origin is shown to the approver).
 */
export function createFinanceDeskRegistry(
  data: FinanceDeskData = createFinanceDeskData(),
  options: RegistryOptions = {},
): ToolRegistry {
  const registry = new ToolRegistry({ requireDifferentApprover: true, ...options });
  const id = { type: 'string', minLength: 1, maxLength: 40 } as const;

  registry.register({
    name: 'invoice.get',
    title: 'Invoice',
    description: 'An invoice by id (INV-1001): the customer, the amount owed and the amount charged.',
    sideEffect: 'read',
    inputSchema: { type: 'object', properties: { invoice: id }, required: ['invoice'] },
    run: ({ invoice }) => {
      const found = data.invoices.get(String(invoice));
      if (found === undefined) throw new Error(`No invoice ${String(invoice)}.`);
      return { invoice, ...found };
    },
  });

  registry.register({
    name: 'customer.get',
    title: 'Customer',
    description: 'A customer by id (cus-42): their name and email address.',
    sideEffect: 'read',
    inputSchema: { type: 'object', properties: { customer: id }, required: ['customer'] },
    run: ({ customer }) => {
      const found = data.customers.get(String(customer));
      if (found === undefined) throw new Error(`No customer ${String(customer)}.`);
      return { customer, ...found };
    },
  });

  registry.register({
    name: 'invoice.mark_disputed',
    title: 'Mark an invoice disputed',
    description: 'Marks an invoice as disputed, so dunning stops while a person looks at it.',
    sideEffect: 'write',
    inputSchema: {
      type: 'object',
      properties: { invoice: id, reason: { type: 'string' } },
      required: ['invoice'],
    },
    effect: 'Marks {invoice} as disputed',
    run: ({ invoice }) => {
      const found = data.invoices.get(String(invoice));
      if (found === undefined) throw new Error(`No invoice ${String(invoice)}.`);
      found.disputed = true;
      return { invoice, disputed: true };
    },
  });

  registry.register({
    name: 'refund.send',
    title: 'Refund a customer',
    description: 'Pays money back to a customer, to the card they paid with.',
    sideEffect: 'send',
    inputSchema: {
      type: 'object',
      properties: {
        customer: id,
        invoice: id,
        amount: { type: 'number', exclusiveMinimum: 0, maximum: 10_000 },
      },
      required: ['customer', 'invoice', 'amount'],
      additionalProperties: false,
    },
    destinations: ['customer'],
    rules: REFUND_RULES,
    holdMs: REFUND_HOLD_MS,
    effect: 'Pays {amount} EUR back to {name} ({customer}) for {invoice}',
    prepare: ({ customer, invoice, amount }) => {
      const found = data.customers.get(String(customer));
      if (found === undefined) throw new Error(`No customer ${String(customer)}.`);
      return { customer, name: found.name, invoice, amount };
    },
    deliver: (payload, { confirmationId }) => {
      const { customer, amount, invoice } = payload as { customer: string; amount: number; invoice: string };
      data.refunds.push({ customer, amount, invoice, confirmationId });
      return { refunded: amount, idempotencyKey: confirmationId };
    },
  });

  registry.register({
    name: 'email.send',
    title: 'Email a customer',
    description: 'Emails a customer.',
    sideEffect: 'send',
    inputSchema: {
      type: 'object',
      properties: { to: { type: 'string' }, subject: { type: 'string' }, text: { type: 'string' } },
      required: ['to', 'subject', 'text'],
      additionalProperties: false,
    },
    destinations: ['to'],
    effect: 'Emails {to}: "{subject}"',
    prepare: (input) => input,
    deliver: (payload, { confirmationId }) => {
      const { to, subject, text } = payload as { to: string; subject: string; text: string };
      data.outbox.push({ to, subject, text, confirmationId });
      return { sent: true };
    },
  });

  return registry;
}

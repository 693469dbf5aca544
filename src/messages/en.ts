import type { MessageCatalog, MessageParams } from './catalog.js';

const toolName = (p: MessageParams) => (p.tool ? `"${p.tool}"` : 'the requested tool');
// Only the model's exit lists what it may call; a person's or a confirmation's message does not.
const availableList = (p: MessageParams) =>
  p.available === undefined
    ? ''
    : p.available.length > 0
      ? ` Available tools: ${p.available.join(', ')}.`
      : ' No tools are available.';
const decided: Readonly<Record<string, string>> = {
  pending: 'is still pending: confirm or reject it instead',
  delivering: 'is being delivered right now',
  delivered: 'was already delivered',
  applied: 'was already applied',
  failed: 'failed to deliver: a person may retry it or mark it delivered',
  rejected: 'was rejected',
  expired: 'has expired',
  unknown: 'has an unknown outcome: a person may retry it or mark it delivered',
};

/** English messages, the default. */
export const en: MessageCatalog = {
  UNKNOWN_TOOL: (p) => `There is no tool named ${toolName(p)}.${availableList(p)}`,
  FLAG_NOT_GRANTED: (p) =>
    p.detail === undefined
      ? `Tool ${toolName(p)} is not enabled here: its feature flag is not granted.`
      : `Approving this needs the feature flags ${p.detail}, which you do not hold; nothing was done. Someone who holds them must approve it.`,
  SCOPE_MISMATCH: (p) =>
    `Tool ${toolName(p)} is not available in scope ${p.scope === undefined ? '(none)' : `"${p.scope}"`}.`,
  SEND_REQUIRES_CONFIRM: (p) =>
    p.detail === 'rule'
      ? `Tool ${toolName(p)} needs a person to confirm this call (one of its rules says so): an autonomous caller cannot run it. Ask for it with registry.propose(), and it runs only after a person confirms.`
      : `Tool ${toolName(p)} sends to people outside: an autonomous caller cannot invoke it. Ask for it with registry.propose(), and it is delivered only after a person confirms.`,
  NOT_READ_ONLY: (p) => `Tool ${toolName(p)} changes or sends something, so the model may not call it.`,
  INVALID_ARGUMENTS: (p) =>
    `The arguments for ${toolName(p)} must be a JSON object: ${p.detail ?? 'they are not'}.`,
  INVALID_INPUT: (p) =>
    `The input for ${toolName(p)} does not match its schema. Fix these and call again:\n${p.detail ?? ''}`,
  SCHEMA_ERROR: (p) =>
    `Tool ${toolName(p)} cannot be used: its input schema is invalid (${p.detail ?? 'unknown reason'}).`,
  RUN_FAILED: (p) => `Tool ${toolName(p)} failed: ${p.detail ?? 'unknown error'}.`,
  TIMEOUT: (p) =>
    p.detail === 'wait'
      ? `No decision within ${p.ms ?? '?'} ms: the confirmation is still ${p.status ?? 'pending'}. Nothing was sent by waiting; wait again later.`
      : `Tool ${toolName(p)} did not finish within ${p.ms ?? '?'} ms.`,
  ABORTED: (p) =>
    p.detail === 'wait'
      ? 'Waiting for the decision was cancelled; the confirmation itself is unchanged.'
      : `The call to ${toolName(p)} was cancelled.`,
  TOO_MANY_CALLS: (p) =>
    `Too many tool calls in one turn: only the first ${p.limit ?? '?'} were run and this one was not. Call it again in your next turn if you still need it.`,
  CONFIRMATION_NOT_FOUND: () => 'There is no confirmation with that id.',
  ALREADY_DECIDED: (p) =>
    `This confirmation ${(p.status && decided[p.status]) || 'was already decided'}; nothing was ${p.status === 'applied' ? 'done' : 'sent'} again.`,
  EXPIRED: () => 'This confirmation has expired; nothing was sent. Ask again to prepare a new one.',
  PAYLOAD_CHANGED: (p) =>
    `The payload differs from the one that was shown (${p.detail === 'stored' ? 'the stored payload no longer matches its digest' : 'digest mismatch'}); nothing was sent. Review it again.`,
  DELIVERY_FAILED: (p) => `Delivery by ${toolName(p)} failed: ${p.detail ?? 'unknown error'}.`,
  AUDIT_FAILED: (p) =>
    `The decision was not recorded in the audit log, so it was not made (nothing was sent); it can be decided again: ${p.detail ?? 'unknown error'}.`,
  STORE_FAILED: (p) => `The confirmation store failed: ${p.detail ?? 'unknown error'}.`,
  SAME_PERSON: (p) =>
    p.detail === 'no-actor'
      ? 'This confirmation does not record who asked, so a second person cannot be checked; nothing was sent. Ask again with the asker recorded (`ctx.actor`).'
      : 'The person who asked for this cannot also approve it; nothing was sent. Another person must confirm it.',
  INVALID_OPTION: (p) => `This call cannot be made as asked: ${p.detail ?? 'its options are invalid'}.`,
  LINK_REFUSED: (p) =>
    p.detail === 'used'
      ? 'This approval link was already used: it works once. Nothing more was done; open the approvals console to see the outcome.'
      : p.detail === 'expired'
        ? 'This approval link has expired; nothing was done. Ask for a new link or open the approvals console.'
        : 'This approval link is not valid here (mistyped, or meant for another confirmation); nothing was done.',
  IDEMPOTENCY_CONFLICT: (p) =>
    `This idempotency key already holds another proposal (#${p.detail ?? 'unknown'}) with a different input; nothing was proposed. Use a new key for a new request.`,
  FORBIDDEN: () => 'You may not make this decision about this confirmation; nothing was done.',
  RUN_NOT_FOUND: () =>
    'The task this call belongs to has ended or is unknown here, so nothing was done. Do not retry it under that task: stop, and tell the person what you were about to do so they can start again.',
  EGRESS_REFUSED: (p) =>
    `Tool ${toolName(p)} would reach ${p.detail ?? 'a destination'} outside, and the person did not name it${p.from === undefined ? ' (it appears nowhere in their request or in what you read)' : ` (it appears only in what you read from ${p.from})`}. Do not open it on your own: ask the person whether to, and call again only with what they name.`,
  PASSKEY_REQUIRED: (p) =>
    p.detail === 'not-configured'
      ? 'This confirmation needs a passkey, and this registry has no passkeys configured (pass `passkeys: createPasskeys(…)` from graded-tools/passkeys); nothing was sent.'
      : 'Approve in the console: a passkey is required for this confirmation. Nothing was sent.',
  PASSKEY_INVALID: (p) =>
    `The passkey did not prove this approval (${p.detail ?? 'invalid assertion'}); nothing was sent. Ask for a new challenge and approve again.`,
  RULE_DENIED: (p) => `Tool ${toolName(p)} refused this call: ${p.detail ?? 'a rule denies it'}`,
  LIMIT_REACHED: (p) =>
    `Tool ${toolName(p)} reached its limit (${p.detail ?? 'a rule limits it'}); it resets at ${p.until ?? 'the end of the window'}. Do not retry before then.`,
  ALREADY_APPROVED: () =>
    'You already approved this payload; nothing more was done. Another person must approve it.',
  AWAITING_APPROVALS: (p) =>
    `Your approval is recorded (${p.detail ?? 'more are needed'} approvals); nothing is sent until enough different people approve the same payload.`,
  SCHEDULED: (p) =>
    `Approved: it will be sent at ${p.until ?? 'the end of its undo window'} unless someone cancels it.`,
};

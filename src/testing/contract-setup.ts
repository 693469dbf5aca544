import { randomBytes } from 'node:crypto';
// What every part of the contract suite shares: the store under test, a pending confirmation, the
// suite's clock, and how a part opens (and skips) its store.
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { payloadDigest } from '../confirm/digest.js';
import type { Confirmation } from '../confirmation.js';
import type { ConfirmationStore, StoreCapability } from '../stores/store.js';
import { hasCapability } from '../stores/store-capabilities.js';

/** A store under test and how to tidy up after it (close a file, drop a table). */
export interface StoreUnderTest {
  readonly store: ConfirmationStore;
  readonly cleanup?: () => void | Promise<void>;
  /**
   * Opens a second instance of the store on the same database, as another process would (the memory
   * store: the same object). Cases of what instances share (runs) use it; without it they are skipped.
   * `cleanup` closes what it opened.
   */
  readonly another?: () => ConfirmationStore | Promise<ConfirmationStore>;
}

export const T0 = Date.parse('2030-01-01T00:00:00.000Z');
export const HOUR = 3_600_000;
export const iso = (ms: number) => new Date(ms).toISOString();

/**
 * A pending confirmation created at `at`, expiring an hour later unless told otherwise: what a store's
 * own tests `create`.
 *
 * @example
 * ```ts
 * import { createMemoryStore } from 'graded-tools';
 * import { pendingConfirmation } from 'graded-tools/testing';
 *
 * await createMemoryStore().create(pendingConfirmation({ tool: 'mail.send' }));
 * ```
 */
export function pendingConfirmation(overrides: Partial<Confirmation> = {}, at = T0): Confirmation {
  const payload = overrides.payload ?? { to: 'ana@example.com', text: 'Your refund is on its way.' };
  return {
    id: randomBytes(16).toString('base64url'),
    tool: 'message.send',
    input: { conversationId: 'c-1001', text: 'Your refund is on its way.' },
    payload,
    digest: payloadDigest(overrides.tool ?? 'message.send', payload),
    actor: 'agent-7',
    scope: 'desk',
    createdAt: iso(at),
    expiresAt: iso(at + HOUR),
    updatedAt: iso(at),
    status: 'pending',
    attempt: 0,
    history: [{ at: iso(at), status: 'pending', by: 'agent-7' }],
    ...overrides,
  };
}

/**
 * Opens the store before the suite's tests (handing it to `use`) and tidies it up after them; with
 * `needs`, the tests are skipped on a store without that capability.
 */
export function usesStore(
  open: () => Promise<StoreUnderTest>,
  use: (store: ConfirmationStore, subject: StoreUnderTest) => void,
  needs?: StoreCapability,
): void {
  let subject: StoreUnderTest | undefined;
  beforeAll(async () => {
    subject = await open();
    use(subject.store, subject);
  });
  let said = false;
  beforeEach(({ skip }) => {
    if (needs === undefined || subject === undefined || hasCapability(subject.store, needs)) return;
    const why = `this store has no ${needs} capability, so its ${needs} cases do not apply`;
    if (!said) console.warn(`[graded-tools/testing] skipping: ${why}`);
    said = true;
    skip(why);
  });
  afterAll(async () => {
    await subject?.cleanup?.();
  });
}

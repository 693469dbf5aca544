import type { ConfirmationStore, StoreCapabilities, StoreCapability } from './store.js';

/** The members each capability adds; a store has a capability when it has all of them. */
export const CAPABILITY_MEMBERS: {
  readonly [Name in StoreCapability]: readonly (keyof StoreCapabilities[Name])[];
} = {
  reminders: ['remindDue'],
  escalations: ['escalateDue'],
  links: ['saveLink', 'findLink', 'useLink'],
  quorum: ['approve'],
  limits: ['spendLimit', 'refundLimit', 'peekLimit'],
  held: ['dueScheduled', 'deliverDue', 'cancel'],
  watch: ['watch'],
  audit: ['audit'],
  bundles: ['createBundle'],
  runs: ['beginRun', 'readRun', 'rememberRead', 'endRun', 'pruneRuns'],
  idempotency: ['findKeyed', 'findAlike'],
  passkeys: [
    'savePasskey',
    'listPasskeys',
    'findPasskey',
    'removePasskey',
    'savePasskeyChallenge',
    'takePasskeyChallenge',
    'advancePasskeyCounter',
  ],
};

/**
 * Whether `store` has `capability` — every member of it (`audit` an object, the rest functions) —
 * narrowing its type to one that has them. The one run-time check of what a store can do.
 *
 * @example
 * ```ts
 * import { createMemoryStore } from 'graded-tools';
 * import { type ConfirmationStore, hasCapability } from 'graded-tools/store';
 *
 * const store: ConfirmationStore = createMemoryStore();
 * if (hasCapability(store, 'held')) await store.dueScheduled({ now: Date.now(), limit: 10 });
 * ```
 */
export function hasCapability<Store extends ConfirmationStore, Name extends StoreCapability>(
  store: Store,
  capability: Name,
): store is Store & StoreCapabilities[Name] {
  return CAPABILITY_MEMBERS[capability].every((member) => {
    const value: unknown = Reflect.get(store, member);
    return member === 'audit' ? typeof value === 'object' && value !== null : typeof value === 'function';
  });
}

/** How a refusal names a missing capability: `held` (`dueScheduled`, `deliverDue`, `cancel`). */
export function describeCapability(capability: StoreCapability): string {
  const members = CAPABILITY_MEMBERS[capability].map((member) => `\`${String(member)}\``).join(', ');
  return `\`${capability}\` (${members})`;
}

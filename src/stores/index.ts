// `graded-tools/store`: what a confirmation store's author needs, by name. The registry's users take
// `createMemoryStore` from the root; test/index.test.ts snapshots this list too.

export type { AuditChain, AuditPageQuery } from '../audit/audit-chain.js';
export type { ListPosition } from './cursor.js';
export { decodeCursor, encodeCursor } from './cursor.js';
export type { EscalationClaim } from './escalation-claim.js';
export type {
  ApprovalLinkRecord,
  ApprovalsSwap,
  ApproveChange,
  AuditStore,
  BundleCreated,
  BundleStore,
  ClaimChange,
  ConfirmationPage,
  ConfirmationQuery,
  ConfirmationStore,
  CoreStore,
  DecisionChange,
  EscalationStore,
  FinishChange,
  FullConfirmationStore,
  HeldSendStore,
  IdempotencyStore,
  LimitOutcome,
  LimitSpend,
  LimitStore,
  LinkApprover,
  LinkStore,
  PasskeyChallengeRecord,
  PasskeyStore,
  PayloadEdit,
  QuorumStore,
  ReminderStore,
  RunLookup,
  RunRead,
  RunReadBounds,
  RunRecord,
  RunSnapshot,
  RunStore,
  StoreCapabilities,
  StoreCapability,
  StoreChange,
  StoreNotice,
  StoreWith,
  TransitionOutcome,
  TransitionRefusal,
  WatchStore,
} from './store.js';
export { hasCapability } from './store-capabilities.js';

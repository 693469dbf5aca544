// `graded-tools/testing`: the contract suite every confirmation store passes, for a custom store to
// run as ours do. It needs vitest (an optional peer dependency); nothing else in the package loads it.

export type { StoreUnderTest } from './store-contract.js';
export { pendingConfirmation, storeContract } from './store-contract.js';

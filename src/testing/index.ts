// `graded-tools/testing`: the contract suite every confirmation store passes, for a custom store to
// run as ours do. It needs vitest (an optional peer dependency); nothing else in the package loads it.

export type { StoreUnderTest } from './contract-setup.js';
export { pendingConfirmation } from './contract-setup.js';
export { storeContract } from './store-contract.js';

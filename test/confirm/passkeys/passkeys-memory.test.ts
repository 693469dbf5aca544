import { createMemoryStore } from 'graded-tools';
import { describe } from 'vitest';
import { passkeyCases } from './passkey-cases.js';

describe('passkey approvals: memory store', () => {
  passkeyCases(async () => ({ store: createMemoryStore(), close: async () => {} }));
});

import { ToolDefinitionError } from 'graded-tools';
import { describe, expect, it } from 'vitest';
import { resolveAdapterOptions } from '../../../src/adapters/core/options.js';

describe('resolveAdapterOptions', () => {
  it('fills in the defaults', () => {
    expect(resolveAdapterOptions()).toEqual({ maxResultChars: 20_000, concurrency: 4, maxCallsPerTurn: 128 });
  });

  it.each([
    { maxResultChars: 10 },
    { maxResultChars: 1.5e3 + 0.5 },
    { concurrency: 0 },
    { concurrency: Number.NaN },
    { maxCallsPerTurn: -1 },
    { maxCallsPerTurn: '5' as unknown as number },
  ])('refuses %j with INVALID_OPTION', (options) => {
    expect(() => resolveAdapterOptions(options)).toThrow(ToolDefinitionError);
    try {
      resolveAdapterOptions(options);
    } catch (error) {
      expect((error as ToolDefinitionError).code).toBe('INVALID_OPTION');
    }
  });
});

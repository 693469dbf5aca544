import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  INVALID_TOOL_NAME,
  modelFacingName,
  PRINTABLE_ID_RULE,
  planCalls,
} from '../../../src/adapters/core/call-plan.js';
import { PROVIDER_NAME_RULE } from '../support/hostile-calls.js';

const anyId = fc.oneof(
  fc.constantFrom('a', 'b', 'call_0', 'call_1', 'call_1_2', ''),
  fc.string({ maxLength: 6 }),
  fc.constant(undefined),
  fc.integer(),
);
const anyName = fc.oneof(fc.string({ maxLength: 70 }), fc.constantFrom('kb__search', ''), fc.constant(null));

describe('planCalls', () => {
  it('gives every call a legal name and a legal id unique in the turn, first legal use kept (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.record({ id: anyId, name: anyName }), { maxLength: 30 }), (calls) => {
        const plan = planCalls(calls, PRINTABLE_ID_RULE);
        expect(plan).toHaveLength(calls.length);
        const ids = plan.map((call) => call.id);
        expect(new Set(ids).size).toBe(ids.length);
        const seen = new Set<unknown>();
        plan.forEach((planned, index) => {
          const original = calls[index];
          expect(planned.name).toMatch(PROVIDER_NAME_RULE);
          expect(PRINTABLE_ID_RULE.isLegal(planned.id ?? '')).toBe(true);
          const legal = typeof original?.id === 'string' && PRINTABLE_ID_RULE.isLegal(original.id);
          if (legal && !seen.has(original.id)) expect(planned.id).toBe(original.id);
          if (legal) seen.add(original.id);
        });
        expect(planCalls(calls, PRINTABLE_ID_RULE)).toEqual(plan);
      }),
    );
  });

  it('leaves missing ids missing where the provider allows it, and still fixes repeated ones', () => {
    const rule = { ...PRINTABLE_ID_RULE, optional: true };
    const plan = planCalls(
      [
        { id: undefined, name: 'a__b' },
        { id: 'x', name: 'a__b' },
        { id: 'x', name: 'a__b' },
        { id: '', name: 'a__b' },
      ],
      rule,
    );
    expect(plan.map((call) => call.id)).toEqual([undefined, 'x', 'call_2', 'call_3']);
  });

  it('does not reuse an id a later call holds', () => {
    const plan = planCalls(
      [
        { id: undefined, name: 'a__b' },
        { id: 'call_0', name: 'a__b' },
      ],
      PRINTABLE_ID_RULE,
    );
    expect(plan.map((call) => call.id)).toEqual(['call_0_2', 'call_0']);
  });
});

describe('modelFacingName', () => {
  it.each([
    ['kb__search', 'kb__search'],
    ['kb.search', INVALID_TOOL_NAME],
    ['', INVALID_TOOL_NAME],
    ['a'.repeat(64), 'a'.repeat(64)],
    ['a'.repeat(65), INVALID_TOOL_NAME],
    ['1abc', INVALID_TOOL_NAME],
    [undefined, INVALID_TOOL_NAME],
  ])('%j → %j', (name, expected) => {
    expect(modelFacingName(name)).toBe(expected);
  });
});

import { cedarRules } from 'graded-tools/cedar';
import { expect, it, vi } from 'vitest';
import type { RuleCall } from '../../../src/rule.js';

// Counts the real wasm `isAuthorized` calls behind the rules' `when` functions.
const counted = vi.hoisted(() => ({ calls: 0 }));
vi.mock('@cedar-policy/cedar-wasm/nodejs', async (importOriginal) => {
  const cedar = await importOriginal<typeof import('@cedar-policy/cedar-wasm/nodejs')>();
  return {
    ...cedar,
    isAuthorized: (call: Parameters<typeof cedar.isAuthorized>[0]) => {
      counted.calls += 1;
      return cedar.isAuthorized(call);
    },
  };
});

it('asks Cedar once per call object for the forbids and once for the permits, whatever the rule count', () => {
  const rules = cedarRules({
    policies: `
      forbid (principal, action, resource) when { context.input.amount > 100 };
      forbid (principal, action, resource) when { context.input.amount > 200 };
      @approvals("2") permit (principal, action, resource) when { context.input.amount > 50 };
      @approverFlags("finance") permit (principal, action, resource) when { context.input.amount > 60 };`,
  });
  // Setting up warms Cedar with one evaluation of each set (forbids, permits); count from here.
  expect(counted.calls).toBe(2);
  counted.calls = 0;
  const call: RuleCall = {
    input: { amount: 300 },
    actor: 'ann',
    scope: undefined,
    flags: {},
    tool: 'refund.send',
    now: new Date(),
    context: undefined,
    origins: {},
  };
  const decide = (on: RuleCall) => rules.map((rule) => typeof rule.when === 'function' && rule.when(on));
  expect(decide(call)).toEqual([true, true, true, true]);
  expect(decide(call)).toEqual([true, true, true, true]);
  expect(counted.calls).toBe(2);
  expect(decide({ ...call, input: { amount: 150 } })).toEqual([true, false, true, true]);
  expect(counted.calls).toBe(4);
});

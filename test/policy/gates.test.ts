import { type GatedTool, isAutonomous, isFlagGranted, isModelCallable, refusalFor } from 'graded-tools';
import { describe, expect, it } from 'vitest';

describe('isFlagGranted', () => {
  it('grants only an own property set to exactly true', () => {
    expect(isFlagGranted({ kb: true }, 'kb')).toBe(true);
    expect(isFlagGranted({ kb: false }, 'kb')).toBe(false);
    expect(isFlagGranted(JSON.parse('{"kb":"true"}'), 'kb')).toBe(false);
    expect(isFlagGranted(JSON.parse('{"kb":1}'), 'kb')).toBe(false);
    expect(isFlagGranted(Object.create({ kb: true }), 'kb')).toBe(false);
    expect(isFlagGranted(undefined, 'kb')).toBe(false);
    expect(isFlagGranted({}, 'toString')).toBe(false);
    expect(isFlagGranted(JSON.parse('{"__proto__":{"kb":true}}'), 'kb')).toBe(false);
  });
});

describe('refusalFor', () => {
  const read: GatedTool = { sideEffect: 'read' };
  const write: GatedTool = { sideEffect: 'write' };
  const send: GatedTool = { sideEffect: 'send' };

  it('lets everyone read an ungated read tool', () => {
    for (const caller of ['person', 'autonomous', 'plan', 'model'] as const) {
      expect(refusalFor(read, {}, caller)).toBeUndefined();
    }
  });

  it('keeps the model to read tools', () => {
    expect(refusalFor(write, {}, 'model')).toBe('NOT_READ_ONLY');
    expect(refusalFor(send, {}, 'model')).toBe('NOT_READ_ONLY');
    expect(refusalFor(write, {}, 'plan')).toBeUndefined();
    expect(refusalFor(write, {}, 'person')).toBeUndefined();
  });

  it('refuses send to every autonomous caller and lets a person start it', () => {
    expect(refusalFor(send, {}, 'person')).toBeUndefined();
    expect(refusalFor(send, {}, 'autonomous')).toBe('SEND_REQUIRES_CONFIRM');
    expect(refusalFor(send, {}, 'plan')).toBe('SEND_REQUIRES_CONFIRM');
  });

  it('checks the feature flag first, then the scope, then send', () => {
    const gated: GatedTool = { sideEffect: 'send', featureFlag: 'mail', scopes: ['desk'] };
    expect(refusalFor(gated, {}, 'plan')).toBe('FLAG_NOT_GRANTED');
    expect(refusalFor(gated, { flags: { mail: true } }, 'plan')).toBe('SCOPE_MISMATCH');
    expect(refusalFor(gated, { flags: { mail: true }, scope: 'crm' }, 'plan')).toBe('SCOPE_MISMATCH');
    expect(refusalFor(gated, { flags: { mail: true }, scope: 'desk' }, 'plan')).toBe('SEND_REQUIRES_CONFIRM');
    expect(refusalFor(gated, { flags: { mail: true }, scope: 'desk' }, 'person')).toBeUndefined();
  });

  it('treats a tool without scopes as available anywhere, and one with scopes as needing one of them', () => {
    expect(refusalFor(read, { scope: 'anything' }, 'model')).toBeUndefined();
    expect(refusalFor({ sideEffect: 'read', scopes: ['a', 'b'] }, { scope: 'b' }, 'model')).toBeUndefined();
    expect(refusalFor({ sideEffect: 'read', scopes: ['a', 'b'] }, {}, 'model')).toBe('SCOPE_MISMATCH');
  });

  it('answers isModelCallable and isAutonomous from the same rules', () => {
    expect(isModelCallable(read, {})).toBe(true);
    expect(isModelCallable({ sideEffect: 'read', featureFlag: 'x' }, {})).toBe(false);
    expect(isModelCallable(write, {})).toBe(false);
    expect(isAutonomous('person')).toBe(false);
    expect(isAutonomous('plan')).toBe(true);
    expect(isAutonomous('model')).toBe(true);
    expect(isAutonomous('autonomous')).toBe(true);
  });
});

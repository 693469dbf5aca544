import { type GateContext, ToolRegistry } from 'graded-tools';
import { describe, expect, it } from 'vitest';
import { readTool } from '../helpers/tools.js';

// Issue 7, hole 2: the model's list is cached per context, and the key once joined scope and flag
// names with NUL, so two different contexts could share one list. The list for a context must be
// exactly what the gates allow for that context, in any call order.

interface Gated {
  readonly name: string;
  readonly scopes?: readonly string[];
  readonly featureFlag?: string;
}

const TOOLS: readonly Gated[] = [
  { name: 'kb.search' },
  { name: 'kb.beta', featureFlag: 'beta' },
  { name: 'admin.users', featureFlag: 'admin' },
  { name: 'tenant.files', scopes: ['tenant-a'] },
  { name: 'tenant.admin', scopes: ['tenant-a'], featureFlag: 'admin' },
  { name: 'desk.queue', scopes: ['desk'] },
  { name: 'num.one', scopes: ['1'] },
  { name: 'nul.joined', scopes: ['tenant-a\u0000admin'] },
  { name: 'flag.joined', featureFlag: 'admin\u0000beta' },
];

function build(): ToolRegistry {
  const registry = new ToolRegistry();
  for (const { name, ...gates } of TOOLS) registry.register(readTool(name, gates).tool);
  return registry;
}

/** The gates, written out again independently: a string scope, flags granted as own `true`. */
function expected(ctx: { scope?: unknown; flags?: Record<string, unknown> }): string[] {
  return TOOLS.filter(({ scopes, featureFlag }) => {
    if (featureFlag !== undefined) {
      const flags = ctx.flags;
      if (flags == null || !Object.hasOwn(flags, featureFlag) || flags[featureFlag] !== true) return false;
    }
    if (scopes !== undefined) return typeof ctx.scope === 'string' && scopes.includes(ctx.scope);
    return true;
  }).map(({ name }) => name.replace('.', '__'));
}

const listed = (registry: ToolRegistry, ctx: unknown) =>
  registry.toFunctionSchemas(ctx as GateContext).map((f) => f.name);

const CONTEXTS: readonly { scope?: unknown; flags?: Record<string, unknown> }[] = [
  { scope: 'tenant-a', flags: { admin: true, beta: true } },
  { scope: 'tenant-a\u0000admin', flags: { beta: true } },
  { scope: 'tenant-a', flags: { 'admin\u0000beta': true } },
  { scope: 'tenant-a\u0000', flags: { admin: true } },
  { scope: 'tenant-a', flags: { '': true, admin: true } },
  { scope: '1' },
  { scope: 1 },
  { scope: 'desk' },
  { scope: ['desk'] },
  { scope: { toString: () => 'desk' } },
  { scope: '' },
  {},
  { flags: { admin: true } },
  { flags: { admin: 'true' } },
];

describe('ToolRegistry#toFunctionSchemas: the cached list is exactly the context’s', () => {
  it('does not serve a NUL-joined scope the list cached for scope plus flag', async () => {
    const registry = build();
    expect(listed(registry, { scope: 'tenant-a', flags: { admin: true, beta: true } })).toContain(
      'tenant__admin',
    );
    const sneaky = { scope: 'tenant-a\u0000admin', flags: { beta: true } };
    const names = listed(registry, sneaky);
    expect(names).not.toContain('admin__users');
    expect(names).not.toContain('tenant__admin');
    expect(names).not.toContain('tenant__files');
    expect(names).toEqual(expected(sneaky));
    // The model's UNKNOWN_TOOL message words the same list: hidden tools must not appear there either.
    const unknown = await registry.invokeReadOnly('x__y', {}, sneaky);
    expect(unknown).toMatchObject({ ok: false, code: 'UNKNOWN_TOOL' });
    if (!unknown.ok) {
      expect(unknown.error).not.toContain('admin__users');
      expect(unknown.error).not.toContain('tenant__admin');
      expect(unknown.error).not.toContain('tenant__files');
    }
  });

  it('does not serve one NUL-joined flag name the list cached for two flags', () => {
    const registry = build();
    listed(registry, { scope: 'tenant-a', flags: { admin: true, beta: true } });
    const names = listed(registry, { scope: 'tenant-a', flags: { 'admin\u0000beta': true } });
    expect(names).not.toContain('admin__users');
    expect(names).not.toContain('kb__beta');
    expect(names).toContain('flag__joined');
  });

  it('treats a scope that is not a string as no scope: scope 1 is not "1"', async () => {
    const registry = build();
    expect(listed(registry, { scope: '1' })).toContain('num__one');
    expect(listed(registry, { scope: 1 })).not.toContain('num__one');
    const called = await registry.invokeReadOnly('num__one', { query: 'x' }, { scope: 1 as never });
    expect(called).toMatchObject({ ok: false, code: 'UNKNOWN_TOOL' });
  });

  it("treats a scope that is not a string as no scope: ['desk'] and a toString object are not 'desk'", async () => {
    const registry = build();
    expect(listed(registry, { scope: 'desk' })).toContain('desk__queue');
    for (const scope of [['desk'], { toString: () => 'desk' }, new String('desk')]) {
      expect(listed(registry, { scope })).not.toContain('desk__queue');
      await expect(
        registry.invokeReadOnly('desk__queue', { query: 'x' }, { scope: scope as never }),
      ).resolves.toMatchObject({ ok: false, code: 'UNKNOWN_TOOL' });
      await expect(
        registry.invoke('desk.queue', { query: 'x' }, { scope: scope as never }),
      ).resolves.toMatchObject({ ok: false });
    }
  });

  it('a scoped tool is not callable with a non-string scope even before anything is cached (already holds)', async () => {
    const registry = build();
    await expect(
      registry.invokeReadOnly('desk__queue', { query: 'x' }, { scope: ['desk'] as never }),
    ).resolves.toMatchObject({ ok: false, code: 'UNKNOWN_TOOL' });
    expect(listed(registry, { scope: ['desk'] })).not.toContain('desk__queue');
  });

  it('gives every context exactly its own list, in either call order', () => {
    for (const order of [CONTEXTS, [...CONTEXTS].reverse()]) {
      const registry = build();
      for (const ctx of order) expect(listed(registry, ctx), JSON.stringify(ctx)).toEqual(expected(ctx));
      // And again, now that every one of them is cached.
      for (const ctx of order) expect(listed(registry, ctx), JSON.stringify(ctx)).toEqual(expected(ctx));
    }
  });

  it('gives every context its own list interleaved with many others (already holds for plain strings)', () => {
    const registry = build();
    for (let round = 0; round < 2; round += 1) {
      for (let i = 0; i < 300; i += 1) {
        const ctx = { scope: `s${i}`, flags: { [`f${i}`]: true, admin: i % 2 === 0 } };
        expect(listed(registry, ctx)).toEqual(expected(ctx));
      }
    }
  });

  it('stays right after more than 256 distinct contexts, including the ambiguous ones', () => {
    const registry = build();
    for (let i = 0; i < 300; i += 1) listed(registry, { scope: `s${i}`, flags: { admin: i % 2 === 0 } });
    for (const ctx of CONTEXTS) expect(listed(registry, ctx), JSON.stringify(ctx)).toEqual(expected(ctx));
    for (let i = 0; i < 300; i += 1) listed(registry, { scope: `t${i}` });
    for (const ctx of [...CONTEXTS].reverse())
      expect(listed(registry, ctx), JSON.stringify(ctx)).toEqual(expected(ctx));
  });

  it('a list handed out cannot change the next one (already holds)', () => {
    const registry = build();
    const first = registry.toFunctionSchemas({ flags: { admin: true } });
    first.push({ name: 'evil__tool', description: 'x', parameters: { type: 'object' } });
    expect(() => {
      (first[0] as { description: string }).description = 'changed';
    }).toThrow();
    expect(listed(registry, { flags: { admin: true } })).toEqual(expected({ flags: { admin: true } }));
    expect(registry.toFunctionSchemas({ flags: { admin: true } })[0]?.description).toBe('Read kb.search.');
  });
});

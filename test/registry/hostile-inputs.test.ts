import { type InvokeContext, ToolRegistry } from 'graded-tools';
import { describe, expect, it } from 'vitest';
import { readTool, sendTool, writeTool } from '../helpers/tools.js';

// Issue 7, holes 1 and 7: whatever a caller passes as context or options, every method answers with a
// result. A synchronous throw counts as a failure too: `attempt` turns it into a rejection.
const attempt = async <T>(call: () => T | Promise<T>): Promise<T> => call();

/** A context whose every read throws, and so does every question about its keys. */
function throwingProxy(): InvokeContext {
  const boom = () => {
    throw new Error('hostile context');
  };
  return new Proxy(
    {},
    { get: boom, has: boom, ownKeys: boom, getOwnPropertyDescriptor: boom, getPrototypeOf: boom },
  ) as InvokeContext;
}

const PROTOTYPE_MEMBERS = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf'];

describe('ToolRegistry: a locale naming an Object.prototype member (hole 1)', () => {
  it.each(PROTOTYPE_MEMBERS)(
    'the model exit answers UNKNOWN_TOOL in English for locale %j',
    async (locale) => {
      const registry = new ToolRegistry().register(readTool().tool);
      const english = await registry.invokeReadOnly('x__y', {}, { locale: 'en' });
      const result = await attempt(() => registry.invokeReadOnly('x__y', {}, { locale: locale as never }));
      expect(result).toEqual(english);
      expect(result).toMatchObject({ ok: false, code: 'UNKNOWN_TOOL' });
    },
  );

  it.each(PROTOTYPE_MEMBERS)('a person is refused in English for locale %j', async (locale) => {
    const { tool, calls } = readTool('kb.search', { featureFlag: 'kb' });
    const registry = new ToolRegistry().register(tool);
    const english = await registry.invoke('kb.search', { query: 'x' }, { locale: 'en' });
    const result = await attempt(() =>
      registry.invoke('kb.search', { query: 'x' }, { locale: locale as never }),
    );
    expect(result).toEqual(english);
    expect(result).toMatchObject({ ok: false, code: 'FLAG_NOT_GRANTED' });
    expect(calls).toEqual([]);
  });

  it.each(PROTOTYPE_MEMBERS)('a registry built with locale %j speaks English', async (locale) => {
    const registry = await attempt(() =>
      new ToolRegistry({ locale: locale as never }).register(writeTool().tool),
    );
    const english = new ToolRegistry().register(writeTool().tool);
    await expect(attempt(() => registry.invokeReadOnly('ticket__submit', {}))).resolves.toEqual(
      await english.invokeReadOnly('ticket__submit', {}),
    );
    await expect(attempt(() => registry.invoke('nope.nope', {}))).resolves.toEqual(
      await english.invoke('nope.nope', {}),
    );
  });

  it.each(PROTOTYPE_MEMBERS)('accessReport with locale %j gives English reasons', async (locale) => {
    const registry = new ToolRegistry().register(writeTool('ticket.submit', { featureFlag: 'desk' }).tool);
    const report = await attempt(() => registry.accessReport({ locale: locale as never }));
    expect(report).toEqual(registry.accessReport({ locale: 'en' }));
  });

  it.each(PROTOTYPE_MEMBERS)('confirm and reject answer a result for locale %j', async (locale) => {
    const registry = new ToolRegistry().register(sendTool().tool);
    await expect(
      attempt(() => registry.confirm('no-such-id', { approvedBy: 'alice', locale: locale as never })),
    ).resolves.toMatchObject({ ok: false, code: 'CONFIRMATION_NOT_FOUND' });
    await expect(
      attempt(() => registry.reject('no-such-id', { rejectedBy: 'alice', locale: locale as never })),
    ).resolves.toMatchObject({ ok: false, code: 'CONFIRMATION_NOT_FOUND' });
  });
});

describe('ToolRegistry: null and hostile contexts (hole 7)', () => {
  it('a null context is a result, never a throw: the tool runs as with no context, or INVALID_OPTION', async () => {
    const { tool, calls } = readTool();
    const registry = new ToolRegistry().register(tool);
    for (const call of [
      () => registry.invoke('kb.search', { query: 'x' }, null as never),
      () => registry.invokeReadOnly('kb__search', { query: 'x' }, null as never),
    ]) {
      const result = await attempt(call);
      if (!result.ok) expect(result.code).toBe('INVALID_OPTION');
      else expect(result).toEqual({ ok: true, data: { hits: ['x'] } });
    }
    const unknown = await attempt(() => registry.invokeReadOnly('x__y', {}, null as never));
    expect(unknown).toMatchObject({ ok: false });
    expect(calls.length).toBeLessThanOrEqual(2);
  });

  it('a null-prototype context works like a plain one', async () => {
    const { tool, calls } = readTool();
    const registry = new ToolRegistry().register(tool);
    const bare = () => Object.create(null) as InvokeContext;
    await expect(attempt(() => registry.invoke('kb.search', { query: 'x' }, bare()))).resolves.toEqual({
      ok: true,
      data: { hits: ['x'] },
    });
    await expect(
      attempt(() => registry.invokeReadOnly('kb__search', { query: 'x' }, bare())),
    ).resolves.toEqual({ ok: true, data: { hits: ['x'] } });
    await expect(attempt(() => registry.invokeReadOnly('x__y', {}, bare()))).resolves.toMatchObject({
      ok: false,
      code: 'UNKNOWN_TOOL',
    });
    expect(calls).toHaveLength(2);
  });

  it('a scope getter that throws, with onEvent set, gives INVALID_OPTION and runs nothing', async () => {
    const events: unknown[] = [];
    const { tool, calls } = readTool();
    const registry = new ToolRegistry({
      onEvent: (event) => {
        events.push(event);
      },
    }).register(tool);
    const ctx = () =>
      ({
        get scope(): string {
          throw new Error('scope getter');
        },
      }) as InvokeContext;
    for (const call of [
      () => registry.invoke('kb.search', { query: 'x' }, ctx()),
      () => registry.invokeReadOnly('kb__search', { query: 'x' }, ctx()),
      () => registry.invokeReadOnly('x__y', {}, ctx()),
    ]) {
      await expect(attempt(call)).resolves.toMatchObject({ ok: false, code: 'INVALID_OPTION' });
    }
    expect(calls).toEqual([]);
  });

  it('a context Proxy that throws on every get, has and ownKeys gives INVALID_OPTION', async () => {
    const { tool, calls } = readTool();
    const registry = new ToolRegistry({ onEvent: () => {} }).register(tool);
    for (const call of [
      () => registry.invoke('kb.search', { query: 'x' }, throwingProxy()),
      () => registry.invokeReadOnly('kb__search', { query: 'x' }, throwingProxy()),
      () => registry.invokeReadOnly('x__y', {}, throwingProxy()),
    ]) {
      await expect(attempt(call)).resolves.toMatchObject({ ok: false, code: 'INVALID_OPTION' });
    }
    expect(calls).toEqual([]);
  });

  it('the model list and the access report do not throw for a throwing context, and show no gated tool', async () => {
    const registry = new ToolRegistry()
      .register(readTool('kb.search').tool)
      .register(readTool('admin.users', { featureFlag: 'admin' }).tool)
      .register(readTool('desk.tickets', { scopes: ['desk'] }).tool);
    const listed = await attempt(() => registry.toFunctionSchemas(throwingProxy()));
    expect(listed.map((f) => f.name)).not.toContain('admin__users');
    expect(listed.map((f) => f.name)).not.toContain('desk__tickets');
    const report = await attempt(() => registry.accessReport(throwingProxy() as never));
    for (const row of report.tools.filter((t) => t.name !== 'kb.search')) {
      expect(row.model.allowed).toBe(false);
      expect(row.person.allowed).toBe(false);
    }
  });

  it('flags given as a Proxy that throws: INVALID_OPTION for a gated tool, and the list does not throw', async () => {
    const flags = new Proxy({} as Record<string, boolean>, {
      get() {
        throw new Error('flags get');
      },
      has() {
        throw new Error('flags has');
      },
      ownKeys() {
        throw new Error('flags ownKeys');
      },
      getOwnPropertyDescriptor() {
        throw new Error('flags descriptor');
      },
    });
    const { tool, calls } = readTool('admin.users', { featureFlag: 'admin' });
    const registry = new ToolRegistry({ onEvent: () => {} }).register(tool);
    await expect(
      attempt(() => registry.invoke('admin.users', { query: 'x' }, { flags })),
    ).resolves.toMatchObject({ ok: false, code: 'INVALID_OPTION' });
    await expect(
      attempt(() => registry.invokeReadOnly('admin__users', { query: 'x' }, { flags })),
    ).resolves.toMatchObject({ ok: false });
    await expect(attempt(() => registry.toFunctionSchemas({ flags }))).resolves.toEqual([]);
    await expect(attempt(() => registry.accessReport({ flags }))).resolves.toMatchObject({
      tools: [{ name: 'admin.users', model: { allowed: false }, person: { allowed: false } }],
    });
    expect(calls).toEqual([]);
  });

  it.each([
    ['a plain object', { aborted: false }],
    ['a string', 'abort'],
    ['a number', 1],
    ['an AbortController', new AbortController()],
  ])('a signal that is not an AbortSignal (%s) gives INVALID_OPTION and runs nothing', async (_, signal) => {
    let ran = 0;
    const { tool } = readTool('kb.search', {
      run: async () => {
        ran += 1;
        return 'ran';
      },
    });
    const registry = new ToolRegistry().register(tool);
    for (const call of [
      () => registry.invoke('kb.search', { query: 'x' }, { signal: signal as never }),
      () => registry.invokeReadOnly('kb__search', { query: 'x' }, { signal: signal as never }),
    ]) {
      await expect(attempt(call)).resolves.toMatchObject({ ok: false, code: 'INVALID_OPTION' });
    }
    expect(ran).toBe(0);
  });

  it.each([
    ['the string "true"', 'true'],
    ['the number 1', 1],
    ['the string "false"', 'false'],
    ['an object', {}],
  ])('autonomous given as %s fails closed: a send tool is not prepared', async (_, autonomous) => {
    const { tool, prepared, delivered } = sendTool();
    const registry = new ToolRegistry().register(tool);
    const result = await attempt(() =>
      registry.invoke('message.send', { text: 'hi' }, { autonomous: autonomous as never }),
    );
    expect(result.ok).toBe(false);
    if (!result.ok) expect(['SEND_REQUIRES_CONFIRM', 'INVALID_OPTION']).toContain(result.code);
    expect(prepared).toEqual([]);
    expect(delivered).toEqual([]);
  });

  it('autonomous false or absent is still a person (already holds)', async () => {
    const { tool, prepared } = sendTool();
    const registry = new ToolRegistry().register(tool);
    for (const ctx of [{}, { autonomous: false }, { autonomous: undefined }]) {
      await expect(registry.invoke('message.send', { text: 'hi' }, ctx)).resolves.toMatchObject({
        ok: true,
        requiresConfirm: true,
      });
    }
    expect(prepared).toHaveLength(3);
  });
});

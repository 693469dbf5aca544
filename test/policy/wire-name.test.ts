import fc from 'fast-check';
import {
  fromWireName,
  isLegalWireName,
  isValidToolName,
  ToolRegistry,
  toWireName,
  WIRE_NAME_PATTERN,
} from 'graded-tools';
import { describe, expect, it } from 'vitest';

describe('wire names', () => {
  it('maps dots to double underscores and back', () => {
    expect(toWireName('kb.search')).toBe('kb__search');
    expect(toWireName('crm.contact_notes.list')).toBe('crm__contact_notes__list');
    expect(fromWireName('kb__search')).toBe('kb.search');
    expect(fromWireName('crm__contact_notes__list')).toBe('crm.contact_notes.list');
  });

  it('keeps a flat name as it is, both ways', () => {
    for (const name of ['send_email', 'get_webpage', 'list-files', 'search', 'X1'])
      expect([isValidToolName(name), toWireName(name), fromWireName(name)]).toEqual([true, name, name]);
  });

  it.each(['kb.search', 'a.b', 'crm.contact-notes.list', 'x1.y_z2', 'Kb.Search', 'search', 'send_email'])(
    'accepts %s',
    (name) => {
      expect(isValidToolName(name)).toBe(true);
    },
  );

  it.each([
    'kb..search',
    '.kb',
    'kb.',
    'kb._search',
    'kb.search_',
    'kb.se__arch',
    '1kb.search',
    'kb.1search',
    'kb.sea rch',
    'kb/search',
    'kb.séarch',
    '',
    // What providers refuse stays refused for flat names too.
    '1search',
    '_send_email',
    'send_email_',
    'send__email',
    'send email',
    'send.email.',
    'send:email',
  ])('refuses %j', (name) => {
    expect(isValidToolName(name)).toBe(false);
  });

  it.each(['kb___search', 'kb__', '__kb', 'kb____search', 'kb_search_', 'kb__1x', 'kb__search_', '1kb', ''])(
    'refuses %j as a wire name of a tool',
    (wire) => {
      expect(fromWireName(wire)).toBeUndefined();
    },
  );

  const segment = fc.stringMatching(/^[A-Za-z][A-Za-z0-9-]{0,6}(_[A-Za-z0-9-]{1,4}){0,2}$/);
  /** Flat (one segment) or dotted (several): every shape of a valid name. */
  const toolName = fc.array(segment, { minLength: 1, maxLength: 4 }).map((parts) => parts.join('.'));

  it('round-trips every valid name, flat or dotted, and every wire form is legal for providers when short enough', () => {
    fc.assert(
      fc.property(toolName, (name) => {
        expect(isValidToolName(name)).toBe(true);
        const wire = toWireName(name);
        expect(fromWireName(wire)).toBe(name);
        expect(isLegalWireName(wire)).toBe(wire.length <= 64);
        expect(WIRE_NAME_PATTERN.test(wire)).toBe(wire.length <= 64);
      }),
    );
  });

  it('is injective: two different valid names, flat or dotted, never share a wire form', () => {
    fc.assert(
      fc.property(toolName, toolName, (a, b) => {
        fc.pre(a !== b);
        expect(toWireName(a)).not.toBe(toWireName(b));
      }),
    );
    // The shapes most likely to collide, side by side: a flat name never holds `__`, a dotted wire always does.
    fc.assert(
      fc.property(segment, fc.array(segment, { minLength: 2, maxLength: 3 }), (flat, parts) => {
        const dotted = parts.join('.');
        expect(toWireName(flat)).not.toContain('__');
        expect(toWireName(dotted)).toContain('__');
        expect(fromWireName(toWireName(flat))).toBe(flat);
        expect(fromWireName(toWireName(dotted))).toBe(dotted);
      }),
    );
  });

  it('a registry takes flat names, resolves them by name, and files them under their domain', () => {
    const registry = new ToolRegistry()
      .register({
        name: 'send_email',
        description: 'Email someone.',
        sideEffect: 'send',
        inputSchema: { type: 'object' },
        prepare: (input: unknown) => input,
        deliver: () => 'sent',
      })
      .register({
        name: 'get_webpage',
        domain: 'web',
        description: 'Fetch a page.',
        sideEffect: 'read',
        inputSchema: { type: 'object' },
        run: () => 'page',
      })
      .register({
        name: 'get.webpage',
        description: 'Fetch a page, dotted.',
        sideEffect: 'read',
        inputSchema: { type: 'object' },
        run: () => 'dotted',
      });
    expect(registry.get('send_email')).toMatchObject({ wireName: 'send_email', domain: 'send_email' });
    expect(registry.get('get_webpage')).toMatchObject({ wireName: 'get_webpage', domain: 'web' });
    expect(registry.get('get__webpage')?.name).toBe('get.webpage');
    expect(registry.list({ domain: 'web' }).map((t) => t.name)).toEqual(['get_webpage']);
    expect(() =>
      new ToolRegistry().register({
        name: 'x_'.repeat(32) + 'y',
        description: 'Too long.',
        sideEffect: 'read',
        inputSchema: { type: 'object' },
        run: () => 1,
      }),
    ).toThrow(/providers accept at most 64/);
    expect(() =>
      new ToolRegistry().register({
        name: 'send_email',
        domain: 'e mail',
        description: 'Bad domain.',
        sideEffect: 'read',
        inputSchema: { type: 'object' },
        run: () => 1,
      }),
    ).toThrow(/`domain` must be one name segment/);
  });
});

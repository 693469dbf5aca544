import fc from 'fast-check';
import { fromWireName, isLegalWireName, isValidToolName, toWireName, WIRE_NAME_PATTERN } from 'graded-tools';
import { describe, expect, it } from 'vitest';

describe('wire names', () => {
  it('maps dots to double underscores and back', () => {
    expect(toWireName('kb.search')).toBe('kb__search');
    expect(toWireName('crm.contact_notes.list')).toBe('crm__contact_notes__list');
    expect(fromWireName('kb__search')).toBe('kb.search');
    expect(fromWireName('crm__contact_notes__list')).toBe('crm.contact_notes.list');
  });

  it.each(['kb.search', 'a.b', 'crm.contact-notes.list', 'x1.y_z2', 'Kb.Search'])('accepts %s', (name) => {
    expect(isValidToolName(name)).toBe(true);
  });

  it.each([
    'search',
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
  ])('refuses %j', (name) => {
    expect(isValidToolName(name)).toBe(false);
  });

  it.each(['kb___search', 'kb__', '__kb', 'kb____search', 'kb_search', 'kb__1x', 'kb__search_'])(
    'refuses %j as a wire name of a tool',
    (wire) => {
      expect(fromWireName(wire)).toBeUndefined();
    },
  );

  const segment = fc.stringMatching(/^[A-Za-z][A-Za-z0-9-]{0,6}(_[A-Za-z0-9-]{1,4}){0,2}$/);
  const toolName = fc.array(segment, { minLength: 2, maxLength: 4 }).map((parts) => parts.join('.'));

  it('round-trips every valid name, and every wire form is legal for providers when short enough', () => {
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

  it('is injective: two different valid names never share a wire form', () => {
    fc.assert(
      fc.property(toolName, toolName, (a, b) => {
        fc.pre(a !== b);
        expect(toWireName(a)).not.toBe(toWireName(b));
      }),
    );
  });
});

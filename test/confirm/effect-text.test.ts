import { describeEffect, ToolDefinitionError, ToolRegistry } from 'graded-tools';
import { describe, expect, it } from 'vitest';
import { readTool, sendTool } from '../helpers/tools.js';

describe("describeEffect: a send tool's effect, filled from the payload", () => {
  it('fills top-level strings, numbers and booleans', () => {
    expect(
      describeEffect('Emails {to} about order {order} (urgent: {urgent})', {
        to: 'ana@example.com',
        order: 42,
        urgent: false,
      }),
    ).toBe('Emails ana@example.com about order 42 (urgent: false)');
  });

  it('leaves a placeholder it cannot fill as written: missing, an object, inherited', () => {
    expect(describeEffect('To {to} / {meta} / {toString}', { meta: { a: 1 } })).toBe(
      'To {to} / {meta} / {toString}',
    );
    expect(describeEffect('To {to}', null)).toBe('To {to}');
    expect(describeEffect('To {to}', ['x'])).toBe('To {to}');
  });

  it('keeps a filled value on one line and short', () => {
    expect(describeEffect('To {to}', { to: 'ana@example.com\nBcc: all@example.com' })).toBe(
      'To ana@example.com Bcc: all@example.com',
    );
    const long = describeEffect('{text}', { text: 'x'.repeat(500) });
    expect(long).toHaveLength(200);
    expect(long.endsWith('…')).toBe(true);
  });
});

describe('a send tool declares its effect', () => {
  it('is on the tool info and the confirmation view', () => {
    const registry = new ToolRegistry().register(
      sendTool('message.send', { effect: 'Emails the customer at {to}' }).tool,
    );
    expect(registry.get('message.send')?.effect).toBe('Emails the customer at {to}');
    expect(registry.confirmations.tool('message.send')?.effect).toBe('Emails the customer at {to}');
  });

  it('is refused on a read tool, and when it is not one short line', () => {
    const registry = new ToolRegistry();
    expect(() => registry.register(readTool('kb.search', { effect: 'Reads' } as never).tool)).toThrow(
      ToolDefinitionError,
    );
    for (const effect of ['', 'two\nlines', 'x'.repeat(301), 7]) {
      expect(() => registry.register(sendTool('message.send', { effect } as never).tool)).toThrow(/`effect`/);
    }
  });
});

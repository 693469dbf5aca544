import { formatAccessReport, ToolRegistry } from 'graded-tools';
import { describe, expect, it } from 'vitest';
import { readTool, sendTool, writeTool } from '../helpers/tools.js';

describe('accessReport', () => {
  const registry = new ToolRegistry()
    .register(readTool('kb.search', { featureFlag: 'kb' }).tool)
    .register(readTool('session.fetch').tool)
    .register(writeTool('ticket.submit').tool)
    .register(sendTool('message.send', { scopes: ['desk'] }).tool);

  it('says for every tool whether a person, a plan and the model may reach it, and why not', () => {
    const report = registry.accessReport({ scope: 'desk', flags: { kb: true, off: false } });
    expect(report.scope).toBe('desk');
    expect(report.grantedFlags).toEqual(['kb']);
    const row = (name: string) => report.tools.find((t) => t.name === name);
    expect(row('kb.search')).toMatchObject({
      person: { allowed: true },
      plan: { allowed: true },
      model: { allowed: true },
    });
    expect(row('ticket.submit')).toMatchObject({
      person: { allowed: true },
      plan: { allowed: true },
      model: { allowed: false, code: 'NOT_READ_ONLY' },
    });
    expect(row('message.send')).toMatchObject({
      person: { allowed: true, requiresConfirm: true },
      plan: { allowed: false, code: 'SEND_REQUIRES_CONFIRM' },
      model: { allowed: false, code: 'NOT_READ_ONLY' },
    });
    expect(row('message.send')?.plan.reason).toContain('Ask for it with registry.propose()');
  });

  it('agrees with the model list and the model exit for the same context', async () => {
    for (const ctx of [
      {},
      { flags: { kb: true } },
      { scope: 'desk' },
      { scope: 'desk', flags: { kb: true } },
    ]) {
      const modelAllowed = registry
        .accessReport(ctx)
        .tools.filter((t) => t.model.allowed)
        .map((t) => t.wireName);
      expect(registry.toFunctionSchemas(ctx).map((f) => f.name)).toEqual(modelAllowed);
      for (const tool of registry.list()) {
        const result = await registry.invokeReadOnly(tool.wireName, '{"query":"x"}', ctx);
        expect(result.ok).toBe(modelAllowed.includes(tool.wireName));
      }
    }
  });

  it('reports out of scope and missing flags, in Chinese when asked', () => {
    const report = registry.accessReport({ locale: 'zh-CN' });
    const send = report.tools.find((t) => t.name === 'message.send');
    expect(send?.person).toMatchObject({ allowed: false, code: 'SCOPE_MISMATCH' });
    expect(send?.person.reason).toContain('不可用');
    expect(report.tools.find((t) => t.name === 'kb.search')?.model.code).toBe('FLAG_NOT_GRANTED');
  });

  it('formats as a table a reviewer can read', () => {
    const text = formatAccessReport(registry.accessReport({ scope: 'desk' }));
    const lines = text.split('\n');
    expect(lines[0]).toBe('scope: desk · flags: (none)');
    expect(lines[1]).toMatch(/^tool\s+grade\s+person\s+plan\s+model$/);
    expect(lines.find((l) => l.startsWith('message.send'))).toMatch(
      /send\s+confirm\s+no: SEND_REQUIRES_CONFIRM\s+no: NOT_READ_ONLY/,
    );
    expect(lines.find((l) => l.startsWith('kb.search'))).toMatch(/no: FLAG_NOT_GRANTED/);
  });
});

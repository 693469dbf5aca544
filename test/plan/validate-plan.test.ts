import { definePlan, ToolRegistry, validatePlan } from 'graded-tools';
import { describe, expect, it } from 'vitest';
import { readTool, sendTool, writeTool } from '../helpers/tools.js';

describe('validatePlan', () => {
  const registry = new ToolRegistry()
    .register(readTool('kb.search').tool)
    .register(writeTool('ticket.submit').tool)
    .register(sendTool('message.send').tool);

  it('accepts a plan of registered read and write tools', () => {
    const plan = definePlan({ name: 'ok', steps: [{ tool: 'kb.search' }, { tool: 'ticket__submit' }] });
    expect(validatePlan(plan, registry)).toEqual({ ok: true, problems: [] });
  });

  it('reports unknown tools and send steps before anything runs', () => {
    const plan = definePlan({
      name: 'bad',
      steps: [{ tool: 'kb.search' }, { tool: 'ticket.close' }, { tool: 'message__send' }],
    });
    const { ok, problems } = validatePlan(plan, registry);
    expect(ok).toBe(false);
    expect(problems.map((p) => [p.seq, p.tool, p.code])).toEqual([
      [1, 'ticket.close', 'UNKNOWN_TOOL'],
      [2, 'message.send', 'SEND_REQUIRES_CONFIRM'],
    ]);
    expect(problems[1]?.message).toContain('a plan cannot send');
  });
});

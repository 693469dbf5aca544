import { type InvokeEvent, type RegistryEvent, ToolRegistry } from 'graded-tools';
import { describe, expect, it } from 'vitest';
import { readTool, sendTool } from './helpers/tools.js';

describe('onEvent', () => {
  it('reports one event per invoke or refusal with tool, caller, outcome, code and ms', async () => {
    const all: RegistryEvent[] = [];
    const registry = new ToolRegistry({ onEvent: (event) => void all.push(event) })
      .register(readTool().tool)
      .register(sendTool().tool);
    await registry.invoke('kb.search', { query: 'a' }, { scope: 'desk' });
    await registry.invoke('kb.search', { nope: 1 });
    await registry.invoke('message.send', { text: 'x' });
    await registry.invoke('message.send', { text: 'x' }, { autonomous: true });
    await registry.invokeReadOnly('kb__search', '{"query":"b"}');
    const events = all.filter((event): event is InvokeEvent => event.type === 'invoke');
    expect(all.filter((event) => event.type === 'confirmation')).toHaveLength(1);
    expect(events.map((e) => [e.tool, e.caller, e.outcome, e.code])).toEqual([
      ['kb.search', 'person', 'ok', undefined],
      ['kb.search', 'person', 'failed', 'INVALID_INPUT'],
      ['message.send', 'person', 'confirm_required', undefined],
      ['message.send', 'autonomous', 'refused', 'SEND_REQUIRES_CONFIRM'],
      ['kb.search', 'model', 'ok', undefined],
    ]);
    expect(events[0]).toMatchObject({ type: 'invoke', scope: 'desk' });
    for (const event of events) {
      expect(event.ms).toBeGreaterThanOrEqual(0);
      expect(event.at).toBeGreaterThan(0);
    }
  });

  it('never lets a throwing or rejecting listener break an invoke', async () => {
    for (const onEvent of [
      () => {
        throw new Error('audit sink down');
      },
      () => Promise.reject(new Error('async audit sink down')),
    ]) {
      const registry = new ToolRegistry({ onEvent }).register(readTool().tool);
      await expect(registry.invoke('kb.search', { query: 'a' })).resolves.toMatchObject({ ok: true });
      await expect(registry.invoke('nope.nope', {})).resolves.toMatchObject({ code: 'UNKNOWN_TOOL' });
    }
  });
});

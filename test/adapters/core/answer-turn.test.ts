import { ToolRegistry } from 'graded-tools';
import { describe, expect, it } from 'vitest';
import { answerTurn } from '../../../src/adapters/core/answer-turn.js';
import { PRINTABLE_ID_RULE } from '../../../src/adapters/core/call-plan.js';
import { resolveAdapterOptions } from '../../../src/adapters/core/options.js';

describe('answerTurn', () => {
  const registry = new ToolRegistry({ locale: 'zh-CN' }).register({
    name: 'kb.search',
    description: 'Search.',
    sideEffect: 'read',
    inputSchema: { type: 'object' },
    run: () => 'hit',
  });
  const turn = (ctx: { locale?: 'en' }) => ({
    registry,
    calls: [1, 2, 3].map((n) => ({ id: `c${n}`, name: 'kb__search' })),
    rule: PRINTABLE_ID_RULE,
    ctx,
    options: resolveAdapterOptions({ maxCallsPerTurn: 2 }),
    argumentsOf: () => ({ args: '{}' }),
  });

  it("speaks the registry's language in the messages it makes itself, unless the call gives one", async () => {
    const zh = await answerTurn(turn({}));
    expect(zh.map(({ reply }) => reply.ok)).toEqual([true, true, false]);
    expect(zh[2]?.reply).toMatchObject({
      code: 'TOO_MANY_CALLS',
      message: expect.stringMatching(/[\u4e00-\u9fff]/),
    });
    const en = await answerTurn(turn({ locale: 'en' }));
    expect(en[2]?.reply).toMatchObject({
      code: 'TOO_MANY_CALLS',
      message: expect.not.stringMatching(/[\u4e00-\u9fff]/),
    });
    expect(registry.locale).toBe('zh-CN');
  });

  it('does not read the arguments of a call past the limit, and answers a refused one unrun', async () => {
    const read: number[] = [];
    const answered = await answerTurn({
      ...turn({ locale: 'en' }),
      argumentsOf: (call: { id: unknown }) => {
        read.push(Number(String(call.id).slice(1)));
        return call.id === 'c1'
          ? { refused: { ok: false, code: 'INVALID_ARGUMENTS', error: 'too deep' } as const }
          : { args: '{}' };
      },
    });
    expect(read).toEqual([1, 2]);
    expect(answered.map(({ id, reply }) => [id, reply.ok ? reply.text : reply.code])).toEqual([
      ['c1', 'INVALID_ARGUMENTS'],
      ['c2', '"hit"'],
      ['c3', 'TOO_MANY_CALLS'],
    ]);
  });
});

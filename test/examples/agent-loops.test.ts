import { spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { type LoopbackServer, startLoopbackServer } from '../adapters/support/loopback-server.js';
import {
  anthropicRequestProblems,
  chatRequestProblems,
  geminiRequestProblems,
} from '../adapters/support/provider-rules.js';
import { ROOT } from '../support/ensure-built.js';

const DRAFT = 'Draft: the duplicate charge is refunded within 5 days.';

function runExample(
  file: string,
  env: Record<string, string>,
): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const clean = { ...process.env };
    for (const key of [
      'OPENAI_BASE_URL',
      'OPENAI_API_KEY',
      'MODEL',
      'ANTHROPIC_BASE_URL',
      'ANTHROPIC_API_KEY',
      'GEMINI_API_KEY',
      'GEMINI_BASE_URL',
    ])
      delete clean[key];
    const child = spawn(process.execPath, ['--import', 'tsx', `examples/${file}`], {
      cwd: ROOT,
      env: { ...clean, ...env },
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
    });
    child.stderr.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
    });
    child.on('close', (code) => resolve({ code, out }));
  });
}

/** A fake OpenAI-compatible model: first it calls tools (one of them a send tool), then it answers. */
function fakeChatModel(): Promise<LoopbackServer> {
  return startLoopbackServer((request) => {
    const problems = chatRequestProblems(request.body);
    if (problems.length > 0) return { status: 400, body: { error: { message: problems.join('; ') } } };
    const answered = request.body.messages.some((message: { role: string }) => message.role === 'tool');
    const message = answered
      ? { role: 'assistant', content: DRAFT, refusal: null }
      : {
          role: 'assistant',
          content: null,
          refusal: null,
          tool_calls: [
            {
              id: 'c1',
              type: 'function',
              function: { name: 'session__fetch', arguments: '{"conversationId":"c-1001"}' },
            },
            {
              id: 'c2',
              type: 'function',
              function: { name: 'kb__search', arguments: '{"query":"duplicate charge"}' },
            },
            { id: 'c2', type: 'function', function: { name: 'message.send', arguments: '{"text":"hi"}' } },
          ],
        };
    return {
      body: {
        id: 'x',
        object: 'chat.completion',
        created: 0,
        model: 'fake',
        choices: [{ index: 0, finish_reason: answered ? 'stop' : 'tool_calls', logprobs: null, message }],
        usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
      },
    };
  });
}

let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('the example agent loops', () => {
  it.each(['openai-loop.ts', 'anthropic-loop.ts', 'gemini-loop.ts', 'ai-sdk-loop.ts'])(
    '%s says what it needs and exits 0 without an endpoint',
    async (file) => {
      const { code, out } = await runExample(file, {});
      expect(code).toBe(0);
      expect(out).toMatch(/needs .*\. Set:/);
    },
  );

  it.each(['openai-loop.ts', 'ai-sdk-loop.ts', 'mcp-loop.ts'])(
    '%s runs a full loop against an OpenAI-compatible endpoint',
    async (file) => {
      server = await fakeChatModel();
      const { code, out } = await runExample(file, {
        OPENAI_BASE_URL: `${server.url}/v1`,
        OPENAI_API_KEY: 'x',
        MODEL: 'fake',
      });
      expect(out).toContain(DRAFT);
      expect(code).toBe(0);
      expect(server.requests).toHaveLength(2);
      const listed = server.requests[0]?.body.tools.map(
        (tool: { function: { name: string } }) => tool.function.name,
      );
      expect(listed).toEqual(['session__fetch', 'kb__search']);
    },
  );

  it('anthropic-loop.ts runs a full loop against a Messages API endpoint', async () => {
    server = await startLoopbackServer((request) => {
      const problems = anthropicRequestProblems(request.body);
      if (problems.length > 0)
        return {
          status: 400,
          body: { type: 'error', error: { type: 'invalid_request_error', message: problems.join('; ') } },
        };
      const answered = request.body.messages.length > 1;
      const content = answered
        ? [{ type: 'text', text: DRAFT }]
        : [
            { type: 'tool_use', id: 'toolu_1', name: 'session__fetch', input: { conversationId: 'c-1001' } },
            { type: 'tool_use', id: 'toolu_1', name: 'ticket__submit', input: { summary: 'x' } },
          ];
      return {
        body: {
          id: 'msg',
          type: 'message',
          role: 'assistant',
          model: 'fake',
          content,
          stop_reason: answered ? 'end_turn' : 'tool_use',
          stop_sequence: null,
          usage: { input_tokens: 1, output_tokens: 1 },
        },
      };
    });
    const { code, out } = await runExample('anthropic-loop.ts', {
      ANTHROPIC_BASE_URL: server.url,
      ANTHROPIC_API_KEY: 'x',
      MODEL: 'fake',
    });
    expect(out).toContain(DRAFT);
    expect(code).toBe(0);
    expect(server.requests).toHaveLength(2);
  });

  it('gemini-loop.ts runs a full loop against a Gemini API endpoint', async () => {
    server = await startLoopbackServer((request) => {
      const problems = geminiRequestProblems(request.body);
      if (problems.length > 0)
        return { status: 400, body: { error: { code: 400, message: problems.join('; ') } } };
      const answered = request.body.contents.length > 1;
      const parts = answered
        ? [{ text: DRAFT }]
        : [
            { functionCall: { name: 'kb__search', args: { query: 'refund' } } },
            { functionCall: { name: 'kb search', args: {} } },
          ];
      return {
        body: { candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }] },
      };
    });
    const { code, out } = await runExample('gemini-loop.ts', {
      GEMINI_API_KEY: 'x',
      GEMINI_BASE_URL: server.url,
      MODEL: 'fake',
    });
    expect(out).toContain(DRAFT);
    expect(code).toBe(0);
    expect(server.requests).toHaveLength(2);
  });
});

import { createServer } from 'node:http';
import { listenOnLoopback } from './loopback-server.js';

/** A content block of a Messages API request or reply, as far as the script reads it. */
export interface Block {
  readonly type: string;
  readonly [key: string]: unknown;
}

/** One `POST /v1/messages` the loopback API received. */
export interface MessagesRequest {
  readonly tools?: readonly { readonly name: string }[];
  readonly messages: readonly { readonly role: string; readonly content: string | readonly Block[] }[];
  readonly stream?: boolean;
  readonly model?: string;
}

/**
 * A loopback Anthropic Messages API whose replies a script decides: `reply(request)` returns the
 * assistant's content blocks (`text` or `tool_use`). Streams when asked, as the API does, so a real
 * client (Claude Code) runs against it. Every request is kept in `requests`.
 */
export async function startScriptedAnthropicApi(reply: (request: MessagesRequest) => readonly Block[]) {
  const requests: MessagesRequest[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      body += chunk;
    });
    req.on('end', () => {
      if (req.method !== 'POST' || !req.url?.startsWith('/v1/messages')) {
        res.writeHead(404, { 'content-type': 'application/json' }).end('{}');
        return;
      }
      const request = JSON.parse(body) as MessagesRequest;
      requests.push(request);
      const content = reply(request);
      const stopReason = content.some((block) => block.type === 'tool_use') ? 'tool_use' : 'end_turn';
      const message = {
        id: `msg_${requests.length}`,
        type: 'message',
        role: 'assistant',
        model: request.model ?? 'claude',
        content,
        stop_reason: stopReason,
        stop_sequence: null,
        usage: { input_tokens: 1, output_tokens: 1 },
      };
      if (request.stream !== true) {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(message));
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const event = (type: string, data: object) =>
        res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
      event('message_start', { message: { ...message, content: [], stop_reason: null } });
      content.forEach((block, index) => {
        if (block.type === 'tool_use') {
          event('content_block_start', { index, content_block: { ...block, input: {} } });
          event('content_block_delta', {
            index,
            delta: { type: 'input_json_delta', partial_json: JSON.stringify(block.input) },
          });
        } else {
          event('content_block_start', { index, content_block: { type: 'text', text: '' } });
          event('content_block_delta', { index, delta: { type: 'text_delta', text: block.text } });
        }
        event('content_block_stop', { index });
      });
      event('message_delta', {
        delta: { stop_reason: stopReason, stop_sequence: null },
        usage: { output_tokens: 1 },
      });
      event('message_stop', {});
      res.end();
    });
  });
  return { ...(await listenOnLoopback(server)), requests };
}

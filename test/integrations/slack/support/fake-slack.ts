// A loopback stand-in for Slack's Web API that checks what Slack checks: the bot token, the shape of
// the arguments (form-encoded with JSON-valued fields, as @slack/web-api sends them, or JSON), and
// Block Kit's limits. It records every call and answers as Slack does (HTTP 200, `ok: false` + error).
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeCall {
  readonly method: string;
  readonly args: Record<string, unknown>;
  /** Slack's answer: `{ ok: true, … }` or `{ ok: false, error }`. */
  readonly answer: Record<string, unknown>;
}

export interface FakeMessage {
  readonly ts: string;
  text: string;
  blocks: unknown[];
  metadata?: unknown;
  readonly threadTs?: string;
}

type Block = Record<string, unknown>;

const JSON_FIELDS = ['blocks', 'metadata', 'view', 'attachments'];

/** Starts the fake on 127.0.0.1 with one known channel; `url` is the `slackApiUrl`. */
export async function startFakeSlack(options: { token: string; channels?: readonly string[] }) {
  const calls: FakeCall[] = [];
  const channels = new Map<string, FakeMessage[]>((options.channels ?? ['C0APPROVERS']).map((c) => [c, []]));
  let clock = 1_900_000_000;
  const nextTs = () => `${clock++}.000100`;

  const handle = (method: string, args: Record<string, unknown>): Record<string, unknown> => {
    switch (method) {
      case 'chat.postMessage': {
        const list = channels.get(String(args.channel));
        if (list === undefined) return fail('channel_not_found');
        const problem = messageProblem(args);
        if (problem !== undefined) return fail(problem);
        const message: FakeMessage = {
          ts: nextTs(),
          text: String(args.text ?? ''),
          blocks: (args.blocks as unknown[]) ?? [],
          ...(args.metadata === undefined ? {} : { metadata: args.metadata }),
          ...(args.thread_ts === undefined ? {} : { threadTs: String(args.thread_ts) }),
        };
        list.push(message);
        return { ok: true, channel: args.channel, ts: message.ts, message };
      }
      case 'chat.update': {
        const message = channels.get(String(args.channel))?.find((m) => m.ts === args.ts);
        if (message === undefined) return fail('message_not_found');
        const problem = messageProblem(args);
        if (problem !== undefined) return fail(problem);
        message.text = String(args.text ?? '');
        message.blocks = (args.blocks as unknown[]) ?? [];
        if (args.metadata !== undefined) message.metadata = args.metadata;
        return { ok: true, channel: args.channel, ts: args.ts };
      }
      case 'chat.postEphemeral': {
        if (!channels.has(String(args.channel))) return fail('channel_not_found');
        if (typeof args.user !== 'string' || typeof args.text !== 'string') return fail('invalid_arguments');
        return { ok: true, message_ts: nextTs() };
      }
      case 'views.open': {
        if (typeof args.trigger_id !== 'string' || args.trigger_id === '') return fail('invalid_trigger_id');
        const problem = viewProblem(args.view);
        return problem === undefined ? { ok: true, view: { id: `V${clock++}` } } : fail(problem);
      }
      case 'conversations.history': {
        const list = channels.get(String(args.channel));
        if (list === undefined) return fail('channel_not_found');
        const limit = Math.min(Number(args.limit ?? 100), 999);
        const withMetadata = args.include_all_metadata === true || args.include_all_metadata === 'true';
        const top = list.filter((m) => m.threadTs === undefined);
        const messages = top
          .slice(-limit)
          .reverse()
          .map((m) => ({
            type: 'message',
            ts: m.ts,
            text: m.text,
            ...(withMetadata && m.metadata !== undefined ? { metadata: m.metadata } : {}),
          }));
        return { ok: true, messages, has_more: top.length > limit };
      }
      default:
        return fail('unknown_method');
    }
  };

  const server: Server = createServer(async (req, res) => {
    const send = (answer: Record<string, unknown>) => {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
    };
    const method = (req.url ?? '').replace(/^\/api\//, '').split('?')[0] ?? '';
    const auth = req.headers.authorization;
    let args: Record<string, unknown>;
    try {
      args = parseArgs(req.headers['content-type'] ?? '', await readAll(req));
    } catch {
      const answer = fail('invalid_form_data');
      calls.push({ method, args: {}, answer });
      return send(answer);
    }
    const answer =
      auth === undefined
        ? fail('not_authed')
        : auth !== `Bearer ${options.token}`
          ? fail('invalid_auth')
          : handle(method, args);
    calls.push({ method, args, answer });
    send(answer);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/api/`,
    calls,
    channels,
    /** The calls of one method that Slack took (`ok: true`). */
    ok: (method: string) => calls.filter((c) => c.method === method && c.answer.ok === true),
    /** Waits until `check` returns something (polling the recorded calls), or fails after `ms`. */
    async until<T>(check: () => T | undefined | false, ms = 5_000): Promise<T> {
      const deadline = Date.now() + ms;
      for (;;) {
        const found = check();
        if (found !== undefined && found !== false) return found;
        if (Date.now() > deadline) throw new Error(`the fake Slack did not see it within ${ms} ms`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type FakeSlack = Awaited<ReturnType<typeof startFakeSlack>>;

function fail(error: string): Record<string, unknown> {
  return { ok: false, error };
}

function readAll(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function parseArgs(contentType: string, body: string): Record<string, unknown> {
  if (contentType.startsWith('application/json')) return JSON.parse(body) as Record<string, unknown>;
  if (!contentType.startsWith('application/x-www-form-urlencoded')) throw new Error('unsupported type');
  const args: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(body)) {
    args[key] = JSON_FIELDS.includes(key) ? JSON.parse(value) : value;
  }
  return args;
}

// ——— Block Kit's limits, as Slack documents them ———

function messageProblem(args: Record<string, unknown>): string | undefined {
  if (typeof args.text === 'string' && args.text.length > 40_000) return 'msg_too_long';
  if (args.text === undefined && args.blocks === undefined) return 'no_text';
  if (args.blocks !== undefined && blocksProblem(args.blocks, 50) !== undefined) return 'invalid_blocks';
  if (args.metadata !== undefined) {
    const m = args.metadata as Block;
    if (
      typeof m !== 'object' ||
      m === null ||
      typeof m.event_type !== 'string' ||
      typeof m.event_payload !== 'object'
    )
      return 'invalid_metadata_format';
  }
  return undefined;
}

function viewProblem(view: unknown): string | undefined {
  if (!isObject(view) || view.type !== 'modal') return 'invalid_arguments';
  if (!isText(view.title, 'plain_text', 24)) return 'invalid_arguments';
  for (const key of ['submit', 'close'])
    if (view[key] !== undefined && !isText(view[key], 'plain_text', 24)) return 'invalid_arguments';
  if (typeof view.private_metadata === 'string' && view.private_metadata.length > 3000)
    return 'invalid_arguments';
  if (typeof view.callback_id === 'string' && view.callback_id.length > 255) return 'invalid_arguments';
  return blocksProblem(view.blocks, 100) === undefined ? undefined : 'invalid_blocks';
}

/** Why these blocks would be refused, or `undefined`. Exported for the tests' own checks. */
export function blocksProblem(blocks: unknown, max: number): string | undefined {
  if (!Array.isArray(blocks)) return 'blocks must be an array';
  if (blocks.length > max) return `more than ${max} blocks`;
  for (const [i, block] of blocks.entries()) {
    const problem = blockProblem(block);
    if (problem !== undefined) return `block ${i}: ${problem}`;
  }
  return undefined;
}

function blockProblem(block: unknown): string | undefined {
  if (!isObject(block)) return 'not an object';
  if (block.block_id !== undefined && (typeof block.block_id !== 'string' || block.block_id.length > 255))
    return 'block_id';
  switch (block.type) {
    case 'header':
      return isText(block.text, 'plain_text', 150) ? undefined : 'header text';
    case 'divider':
      return undefined;
    case 'section': {
      if (block.text === undefined && block.fields === undefined) return 'section without text or fields';
      if (block.text !== undefined && !isText(block.text, undefined, 3000)) return 'section text';
      if (block.fields !== undefined) {
        if (!Array.isArray(block.fields) || block.fields.length > 10) return 'more than 10 fields';
        if (!block.fields.every((f) => isText(f, undefined, 2000))) return 'field text';
      }
      return undefined;
    }
    case 'context': {
      const elements = block.elements;
      if (!Array.isArray(elements) || elements.length === 0 || elements.length > 10)
        return 'context elements';
      return elements.every((e) => isText(e, undefined, 3000)) ? undefined : 'context text';
    }
    case 'actions': {
      const elements = block.elements;
      if (!Array.isArray(elements) || elements.length === 0 || elements.length > 25)
        return 'actions elements';
      return elements.every(buttonIsValid) ? undefined : 'button';
    }
    case 'input': {
      if (!isText(block.label, 'plain_text', 2000)) return 'input label';
      const element = block.element;
      if (!isObject(element) || element.type !== 'plain_text_input') return 'input element';
      if (typeof element.action_id !== 'string' || element.action_id.length > 255) return 'input action_id';
      const max = typeof element.max_length === 'number' ? element.max_length : 3000;
      if (max > 3000) return 'max_length';
      if (
        element.initial_value !== undefined &&
        (typeof element.initial_value !== 'string' || element.initial_value.length > max)
      )
        return 'initial_value';
      return undefined;
    }
    default:
      return `unknown type ${String(block.type)}`;
  }
}

function buttonIsValid(button: unknown): boolean {
  if (!isObject(button) || button.type !== 'button') return false;
  if (!isText(button.text, 'plain_text', 75)) return false;
  if (typeof button.action_id !== 'string' || button.action_id.length > 255) return false;
  if (button.value !== undefined && (typeof button.value !== 'string' || button.value.length > 2000))
    return false;
  if (button.url !== undefined && (typeof button.url !== 'string' || button.url.length > 3000)) return false;
  if (button.style !== undefined && button.style !== 'primary' && button.style !== 'danger') return false;
  if (button.confirm !== undefined) {
    const c = button.confirm;
    if (!isObject(c) || !isText(c.title, 'plain_text', 100) || !isText(c.text, undefined, 300)) return false;
    if (!isText(c.confirm, 'plain_text', 30) || !isText(c.deny, 'plain_text', 30)) return false;
  }
  return true;
}

function isText(value: unknown, type: 'plain_text' | 'mrkdwn' | undefined, max: number): boolean {
  if (!isObject(value)) return false;
  if (value.type !== 'plain_text' && value.type !== 'mrkdwn') return false;
  if (type !== undefined && value.type !== type) return false;
  return typeof value.text === 'string' && value.text.length > 0 && value.text.length <= max;
}

function isObject(value: unknown): value is Block {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

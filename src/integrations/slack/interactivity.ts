import { readInteraction } from './interaction.js';
import { ReplayGuard } from './replay-guard.js';
import { verifySlackSignature } from './signature.js';
import type { SlackDecisions } from './slack-decisions.js';

/** Slack's interactivity payloads are small; a body larger than this is refused unread. */
const MAX_BODY_BYTES = 1024 * 1024;

/**
 * Slack's interactivity Request URL as a Fetch handler: every request is verified (the signing
 * secret, the five-minute window, replays), read once, and answered at once — Slack waits three
 * seconds — with the decision and the message update made right after. Only an edit is checked
 * before answering, so that a refused edit is shown in its modal.
 */
export class SlackInteractivity {
  readonly #signingSecret: string;
  readonly #now: () => number;
  readonly #decisions: SlackDecisions;
  readonly #replays = new ReplayGuard();

  constructor(settings: { signingSecret: string; now: () => number; decisions: SlackDecisions }) {
    this.#signingSecret = settings.signingSecret;
    this.#now = settings.now;
    this.#decisions = settings.decisions;
  }

  async fetch(request: Request): Promise<Response> {
    if (request.method !== 'POST') return answer(405, { allow: 'POST' });
    const body = await readBody(request);
    if (body === undefined) return answer(413);
    const refused = this.#verify(request.headers, body);
    if (refused !== undefined) return refused;
    const interaction = readInteraction(new TextDecoder().decode(body));
    if (interaction === undefined) return answer(400);
    if (interaction.kind === 'button') return later(() => this.#decisions.click(interaction));
    if (interaction.kind === 'submit' && interaction.form === 'reject')
      return later(() => this.#decisions.submitReject(interaction));
    if (interaction.kind === 'submit') {
      const edit = await this.#decisions.submitEdit(interaction);
      if ('errors' in edit)
        return Response.json({ response_action: 'errors', errors: edit.errors }, { status: 200 });
      return later(edit.afterwards);
    }
    return answer(200);
  }

  /** `undefined` when the request is Slack's, fresh, and not seen before; else the refusal. */
  #verify(headers: Headers, body: Uint8Array): Response | undefined {
    const nowMs = this.#now();
    const timestamp = headers.get('x-slack-request-timestamp');
    const signature = headers.get('x-slack-signature');
    const verdict = verifySlackSignature({
      signingSecret: this.#signingSecret,
      timestamp,
      signature,
      body,
      nowMs,
    });
    if (verdict !== 'ok' || timestamp === null || signature === null) return answer(401);
    const seen = this.#replays.take(signature, Number(timestamp), Math.floor(nowMs / 1000));
    if (seen === 'replayed') return answer(401);
    return seen === 'full' ? answer(503, { 'retry-after': '5' }) : undefined;
  }
}

/** Answers Slack now (an empty 200) and runs `task` after; what it throws is dropped. */
function later(task: () => Promise<void>): Response {
  void Promise.resolve()
    .then(task)
    .catch(() => {});
  return answer(200);
}

function answer(status: number, headers: Record<string, string> = {}): Response {
  return new Response(null, { status, headers: { 'cache-control': 'no-store', ...headers } });
}

/** The raw body — the bytes the signature covers — or `undefined` when too large or unreadable. */
async function readBody(request: Request): Promise<Uint8Array | undefined> {
  if (Number(request.headers.get('content-length') ?? '0') > MAX_BODY_BYTES) return undefined;
  if (request.body === null) return new Uint8Array();
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > MAX_BODY_BYTES) {
        await reader.cancel().catch(() => {});
        return undefined;
      }
      chunks.push(value);
    }
  } catch {
    return undefined;
  }
  return Buffer.concat(chunks);
}

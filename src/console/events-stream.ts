import { isAllowed } from './access.js';
import type { PersonRequest } from './console-request.js';
import { refusal } from './json-response.js';

/** How often an idle stream says it is alive, so proxies do not cut it. */
const PING_MS = 15_000;
/** A client this many events behind is not reading; more would only pile up in memory. */
const MAX_QUEUED = 256;
/** The streams one person may hold open at once (a few tabs); the next is 429 `TOO_MANY_STREAMS`. */
export const MAX_STREAMS_PER_PERSON = 5;

const encoder = new TextEncoder();

/**
 * The open event streams of one console: each is a `text/event-stream` that says `change` (with the
 * confirmation's id, when known) whenever `registry.confirmations.watch` reports one, so the page
 * reloads what it shows. Only ids the person may `view` are told; the stream ends when the client
 * goes away or the console is closed.
 */
export class EventStreams {
  readonly #open = new Set<() => void>();
  /** How many streams each person id holds open now. */
  readonly #held = new Map<string, number>();
  #closed = false;

  /**
   * `GET api/events`: a new stream for the person of `ctx` — 503 once the console is closed, 429 when
   * they already hold their share.
   */
  open(ctx: PersonRequest): Response {
    const streams = this.#open;
    const held = this.#held;
    const personId = ctx.person.id;
    if (this.#closed) return refusal(503, 'CONSOLE_CLOSED', ctx.locale);
    if ((held.get(personId) ?? 0) >= MAX_STREAMS_PER_PERSON)
      return refusal(429, 'TOO_MANY_STREAMS', ctx.locale);
    held.set(personId, (held.get(personId) ?? 0) + 1);
    const { registry, authorize } = ctx.settings;
    let stop = () => {};
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        let unwatch = () => {};
        let timer: ReturnType<typeof setInterval> | undefined;
        let ended = false;
        // Notices are told in the order they came, each after its `view` check.
        let told: Promise<void> = Promise.resolve();
        const send = (text: string) => {
          if (ended) return;
          if ((controller.desiredSize ?? 0) < -MAX_QUEUED) return;
          controller.enqueue(encoder.encode(text));
        };
        stop = () => {
          if (ended) return;
          ended = true;
          streams.delete(stop);
          const left = (held.get(personId) ?? 1) - 1;
          if (left > 0) held.set(personId, left);
          else held.delete(personId);
          clearInterval(timer);
          ctx.request.signal.removeEventListener('abort', stop);
          try {
            unwatch();
          } catch {}
          try {
            controller.close();
          } catch {}
        };
        const tell = async (id: string | undefined) => {
          if (id !== undefined && authorize !== undefined) {
            const found = await registry.confirmations.get(id);
            if (!found.ok || !(await isAllowed(authorize, ctx.person, 'view', found.confirmation))) return;
          }
          send(`event: change\ndata: ${JSON.stringify(id === undefined ? {} : { id })}\n\n`);
        };
        streams.add(stop);
        send('retry: 3000\n\n');
        try {
          unwatch = registry.confirmations.watch((notice) => {
            const id = typeof notice?.id === 'string' ? notice.id : undefined;
            told = told.then(() => tell(id)).catch(() => {});
          });
        } catch {
          stop();
          return;
        }
        timer = setInterval(() => send(': ping\n\n'), PING_MS);
        timer.unref?.();
        if (ctx.request.signal.aborted) stop();
        else ctx.request.signal.addEventListener('abort', stop, { once: true });
      },
      cancel() {
        stop();
      },
    });
    return new Response(body, {
      status: 200,
      headers: {
        'content-type': 'text/event-stream; charset=utf-8',
        'x-accel-buffering': 'no',
      },
    });
  }

  /** Ends every open stream; new ones are refused from now on. */
  close(): void {
    this.#closed = true;
    for (const stop of [...this.#open]) stop();
  }
}

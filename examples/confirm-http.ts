// Confirming sends over HTTP with plain node:http: list what waits for a person, show it, confirm it
// with the digest the person saw, or reject it. Run it: `npx tsx examples/confirm-http.ts`, then
//
//   curl -s -X POST localhost:3000/messages -H 'x-user: agent-7' -H 'content-type: application/json' \
//        -d '{"conversationId":"c-1001","text":"Your refund is on its way."}'
//   curl -s localhost:3000/confirmations -H 'x-user: lead-2'
//   curl -s -X POST localhost:3000/confirmations/<id>/confirm -H 'x-user: lead-2' \
//        -H 'content-type: application/json' -d '{"digest":"<digest>"}'
//
// Set CONFIRMATIONS_DB=./confirmations.db to keep confirmations in SQLite across restarts.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { Confirmation, ErrorCode, ToolRegistry } from 'graded-tools';
import { createSqliteStore } from 'graded-tools/sqlite';
import { createSupportDeskData, createSupportDeskRegistry } from './support-desk-registry.js';

/** How a result code reads as an HTTP status. */
const STATUS_OF: Partial<Record<ErrorCode, number>> = {
  CONFIRMATION_NOT_FOUND: 404,
  ALREADY_DECIDED: 409,
  PAYLOAD_CHANGED: 409,
  EXPIRED: 410,
  FLAG_NOT_GRANTED: 403,
  SCOPE_MISMATCH: 403,
  INVALID_OPTION: 400,
  INVALID_INPUT: 400,
  INVALID_ARGUMENTS: 400,
  DELIVERY_FAILED: 502,
  STORE_FAILED: 503,
};

const MAX_BODY_BYTES = 64 * 1024;

/** What a confirmation screen needs; the input and history stay server-side. */
function forScreen(c: Confirmation) {
  return {
    id: c.id,
    tool: c.tool,
    payload: c.payload,
    digest: c.digest,
    askedBy: c.actor,
    status: c.status,
    expiresAt: c.expiresAt,
  };
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
  res.end(JSON.stringify(body));
}

/** The request's JSON body, or why there is none to use. */
async function readJson(
  req: IncomingMessage,
): Promise<{ ok: true; value: Record<string, unknown> } | { ok: false; status: number; error: string }> {
  // Only JSON: a cross-site HTML form cannot send it, which keeps simple CSRF out of confirm/reject.
  if (!(req.headers['content-type'] ?? '').startsWith('application/json'))
    return { ok: false, status: 415, error: 'send application/json' };
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) return { ok: false, status: 413, error: 'the body is too large' };
    chunks.push(chunk as Buffer);
  }
  try {
    const value = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as unknown;
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      return { ok: false, status: 400, error: 'the body must be a JSON object' };
    return { ok: true, value: value as Record<string, unknown> };
  } catch {
    return { ok: false, status: 400, error: 'the body is not valid JSON' };
  }
}

/**
 * Who is calling. A stand-in: a real app takes the person from its session or token, never from a
 * header the browser can set. Everything below trusts only what this returns.
 */
function personOf(req: IncomingMessage): string | undefined {
  const user = req.headers['x-user'];
  return typeof user === 'string' && user.trim() !== '' ? user : undefined;
}

/** The request handler: every route answers JSON; results map to statuses, nothing throws. */
export function createConfirmHandler(registry: ToolRegistry) {
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const person = personOf(req);
    if (person === undefined)
      return send(res, 401, { error: 'sign in first (x-user header in this example)' });
    const url = new URL(req.url ?? '/', 'http://localhost');
    const segments = url.pathname.split('/');
    if (segments.length > 4) return send(res, 404, { error: 'not found' });
    const [, collection, id, action] = segments;

    // A person asks to send: the tool only prepares; the answer is what to show and confirm.
    if (req.method === 'POST' && collection === 'messages' && id === undefined) {
      const body = await readJson(req);
      if (!body.ok) return send(res, body.status, { error: body.error });
      const asked = await registry.invoke('message.send', body.value, { scope: 'desk', actor: person });
      if (!asked.ok) return send(res, STATUS_OF[asked.code] ?? 500, { code: asked.code, error: asked.error });
      if (!asked.requiresConfirm) return send(res, 500, { error: 'expected a confirmation' });
      const { confirmationId, confirmPayload, digest, expiresAt } = asked;
      return send(res, 201, { id: confirmationId, payload: confirmPayload, digest, expiresAt });
    }

    if (collection !== 'confirmations') return send(res, 404, { error: 'not found' });

    if (req.method === 'GET' && id === undefined) {
      const pending = await registry.confirmations.list({ status: 'pending', limit: 50 });
      if (!pending.ok)
        return send(res, STATUS_OF[pending.code] ?? 500, { code: pending.code, error: pending.error });
      return send(res, 200, pending.confirmations.map(forScreen));
    }

    if (req.method === 'GET' && id !== undefined && action === undefined) {
      const found = await registry.confirmations.get(id);
      if (!found.ok) return send(res, STATUS_OF[found.code] ?? 500, { code: found.code, error: found.error });
      return send(res, 200, forScreen(found.confirmation));
    }

    if (req.method === 'POST' && id !== undefined && (action === 'confirm' || action === 'reject')) {
      const body = await readJson(req);
      if (!body.ok) return send(res, body.status, { error: body.error });
      const { digest, reason } = body.value;
      const result =
        action === 'confirm'
          ? // The digest the screen showed: if the stored tool or payload differs, nothing is sent.
            await registry.confirm(id, {
              approvedBy: person,
              digest: typeof digest === 'string' ? digest : undefined,
              scope: 'desk',
            })
          : await registry.reject(id, {
              rejectedBy: person,
              reason: typeof reason === 'string' ? reason : undefined,
            });
      if (!result.ok) {
        const status = result.confirmation?.status;
        return send(res, STATUS_OF[result.code] ?? 500, { code: result.code, error: result.error, status });
      }
      return send(res, 200, forScreen(result.confirmation));
    }

    return send(res, 405, { error: 'method not allowed' });
  };
}

/** A running example server. */
export interface ConfirmServer {
  readonly server: Server;
  /** `http://host:port` it listens on. */
  readonly url: string;
  close(): Promise<void>;
}

/** Starts the example on `host:port` (port 0 picks a free one). */
export async function startConfirmServer(
  options: { readonly registry?: ToolRegistry; readonly port?: number; readonly host?: string } = {},
): Promise<ConfirmServer> {
  const registry = options.registry ?? createSupportDeskRegistry();
  const handle = createConfirmHandler(registry);
  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) send(res, 500, { error: 'internal error' });
      else res.destroy();
    });
  });
  await new Promise<void>((resolve) =>
    server.listen(options.port ?? 3000, options.host ?? '127.0.0.1', resolve),
  );
  const { address, port } = server.address() as AddressInfo;
  return {
    server,
    url: `http://${address}:${port}`,
    close: () =>
      new Promise((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  // Picking a store: memory for a demo (gone on restart); SQLite for one host; PostgreSQL
  // (graded-tools/postgres) when several app instances must share confirmations.
  const path = process.env.CONFIRMATIONS_DB;
  const data = createSupportDeskData();
  const registry = createSupportDeskRegistry(
    data,
    path ? { confirmations: createSqliteStore({ path }) } : {},
  );
  const { url } = await startConfirmServer({ registry, port: Number(process.env.PORT ?? 3000) });
  console.log(`Confirmations on ${url} (store: ${path ? `SQLite ${path}` : 'memory'})`);
  // Confirmations whose delivery was cut short by a crash come back as "unknown" for a person to settle.
  await registry.recoverStale({ olderThanMs: 10 * 60_000 });
}

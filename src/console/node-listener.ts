import type { IncomingMessage, ServerResponse } from 'node:http';
import { serveNode } from '../http/node-fetch-bridge.js';
import type { NodeListenerRequest, NodeListenerResponse } from '../http/node-shapes.js';
import { jsonResponse, refusal } from './json-response.js';
import { withSecurityHeaders } from './security-headers.js';
import type { ApprovalsConsole } from './types.js';

export type { NodeListenerRequest, NodeListenerResponse } from '../http/node-shapes.js';

/** How `toNodeListener` reads a request's own URL. */
export interface NodeListenerOptions {
  /**
   * Behind a reverse proxy that terminates TLS: take the protocol and host from its
   * `X-Forwarded-Proto` / `X-Forwarded-Host` (default false: the socket and the `Host` header). The
   * console compares a POST's `Origin` with this URL, so set it only when the proxy sets them.
   */
  readonly trustProxy?: boolean;
}

/**
 * The console as a `node:http` request listener (also an Express handler): each `IncomingMessage`
 * becomes a Fetch `Request` (aborted when the client goes away), and the `Response` is written back,
 * streaming its body — the event stream included — and cancelling it when the client disconnects.
 * Only origin-form targets (`/approvals/…`) are served (anything else is 400), and a `Host` that is
 * not a host (userinfo, a bad port, a space) is 403 `FORBIDDEN_HOST`; the console then checks the
 * host against `publicUrl` or `allowedHosts`. Mount it before any body parser. Under Express's `app.use('/approvals', …)` the full
 * `req.originalUrl` is used, so give the console the same `basePath`.
 *
 * @example
 * ```ts
 * import { createServer } from 'node:http';
 * import { ToolRegistry } from 'graded-tools';
 * import { createApprovalsConsole, toNodeListener } from 'graded-tools/console';
 *
 * const approvals = createApprovalsConsole({
 *   registry: new ToolRegistry(),
 *   authenticate: (request) => (request.headers.get('x-user') === 'lead-li' ? { id: 'lead-li' } : undefined),
 * });
 * const server = createServer(toNodeListener(approvals)).listen(3000, '127.0.0.1');
 * server.on('close', () => approvals.close());
 * ```
 */
export function toNodeListener(
  approvals: Pick<ApprovalsConsole, 'fetch'>,
  options: NodeListenerOptions = {},
): (req: NodeListenerRequest, res: NodeListenerResponse) => void {
  const serve = serveNode((request) => approvals.fetch(request), {
    trustProxy: options.trustProxy === true,
    refusal: (why) => withSecurityHeaders(REFUSALS[why]()),
  });
  // Node's http server is the only caller: what it passes is an IncomingMessage and a ServerResponse.
  return (req, res) => {
    void serve(req as IncomingMessage, res as ServerResponse);
  };
}

/** What the listener answers itself: a target that is not a path, a Host that is not a host, a throw. */
const REFUSALS = {
  target: () => refusal(400, 'BAD_REQUEST', 'en'),
  host: () => refusal(403, 'FORBIDDEN_HOST', 'en'),
  failed: () => jsonResponse(500, { ok: false, code: 'CONSOLE_FAILED' }),
} as const;

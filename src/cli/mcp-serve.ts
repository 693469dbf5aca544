import { ToolDefinitionError } from '../errors/tool-definition-error.js';
import type { Locale } from '../messages/index.js';
import type { InvokeContext } from '../registry.js';
import type { CommandIo } from './command-io.js';
import { loadRegistry } from './load-registry.js';
import type { McpServing } from './mcp-serving.js';

/** What `graded-tools mcp` was asked to serve, its options checked. */
export interface McpServeRequest {
  readonly modulePath: string;
  readonly scope?: string;
  readonly flags: readonly string[];
  readonly locale?: Locale;
  readonly maxResultChars?: number;
  readonly concurrency?: number;
  /** Serve Streamable HTTP on this port; stdio when absent. */
  readonly port?: number;
  readonly host?: string;
  /** Extra `Host` names accepted over HTTP, besides the loopback ones. */
  readonly allowedHosts?: readonly string[];
}

/**
 * Loads the registry module and serves it over stdio (or Streamable HTTP with a port) on the SDK that
 * `serving` wraps. Resolves with an exit code once the server is up (1 when the module cannot be
 * used); the process then lives as long as the transport.
 */
export async function serveMcp(
  request: McpServeRequest,
  io: CommandIo,
  serving: McpServing,
): Promise<number> {
  const { port } = request;
  if (port === undefined) io.reserveStdout?.();
  const loaded = await loadRegistry(request.modulePath, io.cwd);
  if (!loaded.ok) {
    io.error(loaded.problem);
    return 1;
  }
  const ctx: InvokeContext = {
    ...(request.scope === undefined ? {} : { scope: request.scope }),
    flags: Object.fromEntries(request.flags.map((flag) => [flag, true])),
    ...(request.locale === undefined ? {} : { locale: request.locale }),
  };
  const options = {
    ...(request.maxResultChars === undefined ? {} : { maxResultChars: request.maxResultChars }),
    ...(request.concurrency === undefined ? {} : { concurrency: request.concurrency }),
  };
  try {
    const tools = loaded.registry.toFunctionSchemas(ctx).map((schema) => schema.name);
    if (port !== undefined) {
      const { allowedHosts, host } = request;
      const running = await serving.http(loaded.registry, ctx, {
        ...options,
        port,
        ...(host === undefined ? {} : { host }),
        ...(allowedHosts === undefined
          ? {}
          : { allowedHosts: ['localhost', '127.0.0.1', '[::1]', ...allowedHosts] }),
      });
      io.error(
        `graded-tools: MCP (Streamable HTTP) on ${running.url} — ${tools.length} tools: ${tools.join(', ')}`,
      );
      const stop = () => void running.close().finally(() => process.exit(0));
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
      return 0;
    }
    const close = await serving.stdio(loaded.registry, ctx, options);
    const stop = () => void close().finally(() => process.exit(0));
    process.stdin.once('end', stop);
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    io.error(
      `graded-tools: MCP on stdio (${serving.sdk}) — ${tools.length} tools: ${tools.join(', ') || '(none)'}`,
    );
    return 0;
  } catch (error) {
    io.error(
      error instanceof ToolDefinitionError
        ? `graded-tools: ${error.message}`
        : `graded-tools: could not start: ${error instanceof Error ? error.message : String(error)}`,
    );
    return 1;
  }
}

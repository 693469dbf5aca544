import { parseArgs } from 'node:util';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { serveMcpHttp } from '../adapters/mcp/http.js';
import { createMcpServer } from '../adapters/mcp/server.js';
import { ToolDefinitionError } from '../errors/tool-definition-error.js';
import type { Locale } from '../messages/index.js';
import type { InvokeContext } from '../registry.js';
import { loadRegistry } from './load-registry.js';

/** Help for `graded-tools mcp`. */
export const MCP_USAGE = `Usage: graded-tools mcp <registry-module> [options]

Serves the model-facing tools of a registry (read tools whose gates pass) over MCP.
The module default-exports a ToolRegistry or exports \`registry\`.

Options:
  --scope <scope>            the scope of every call
  --flag <name>              grant a feature flag (repeatable)
  --locale <en|zh-CN>        language of messages
  --max-result-chars <n>     cut longer results (default 20000)
  --concurrency <n>          calls run at once (default 4)
  --port <n>                 serve Streamable HTTP on this port instead of stdio
  --host <host>              interface for --port (default 127.0.0.1)
  --allowed-host <name>      extra Host name accepted over HTTP (repeatable)
  -h, --help                 show this help
`;

/** Where the command writes for people (never stdout in stdio mode: that is the protocol). */
export interface CommandIo {
  readonly cwd: string;
  readonly error: (line: string) => void;
  /** Called before the registry module loads when stdout will carry the protocol (stdio mode). */
  readonly reserveStdout?: () => void;
}

function integer(value: string | undefined, option: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw new TypeError(`--${option} takes a whole number (got "${value}").`);
  return Number(value);
}

/**
 * `graded-tools mcp <module> …`: loads the registry and serves it over stdio (or Streamable HTTP with
 * `--port`). Resolves with an exit code once the server is up (2 for a usage error, 1 when the module
 * cannot be used); the process then lives as long as the transport.
 */
export async function runMcpCommand(args: readonly string[], io: CommandIo): Promise<number> {
  let parsed: ReturnType<typeof parse>;
  const parse = () =>
    parseArgs({
      args: [...args],
      allowPositionals: true,
      strict: true,
      options: {
        scope: { type: 'string' },
        flag: { type: 'string', multiple: true },
        locale: { type: 'string' },
        'max-result-chars': { type: 'string' },
        concurrency: { type: 'string' },
        port: { type: 'string' },
        host: { type: 'string' },
        'allowed-host': { type: 'string', multiple: true },
        help: { type: 'boolean', short: 'h' },
      },
    });
  let maxResultChars: number | undefined;
  let concurrency: number | undefined;
  let port: number | undefined;
  try {
    parsed = parse();
    maxResultChars = integer(parsed.values['max-result-chars'], 'max-result-chars');
    concurrency = integer(parsed.values.concurrency, 'concurrency');
    port = integer(parsed.values.port, 'port');
  } catch (error) {
    io.error(`${error instanceof Error ? error.message : String(error)}\n\n${MCP_USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help === true) {
    io.error(MCP_USAGE);
    return 0;
  }
  const [modulePath, ...extra] = positionals;
  if (modulePath === undefined || extra.length > 0) {
    io.error(
      `${modulePath === undefined ? 'Give the registry module.' : `Unexpected: ${extra.join(' ')}`}\n\n${MCP_USAGE}`,
    );
    return 2;
  }
  const locale = values.locale;
  if (locale !== undefined && locale !== 'en' && locale !== 'zh-CN') {
    io.error(`--locale is en or zh-CN (got "${locale}").\n\n${MCP_USAGE}`);
    return 2;
  }

  if (port === undefined) io.reserveStdout?.();
  const loaded = await loadRegistry(modulePath, io.cwd);
  if (!loaded.ok) {
    io.error(loaded.problem);
    return 1;
  }
  const ctx: InvokeContext = {
    ...(values.scope === undefined ? {} : { scope: values.scope }),
    flags: Object.fromEntries((values.flag ?? []).map((flag) => [flag, true])),
    ...(locale === undefined ? {} : { locale: locale as Locale }),
  };
  const options = {
    ...(maxResultChars === undefined ? {} : { maxResultChars }),
    ...(concurrency === undefined ? {} : { concurrency }),
  };
  try {
    const tools = loaded.registry.toFunctionSchemas(ctx).map((schema) => schema.name);
    if (port !== undefined) {
      const allowedHost = values['allowed-host'];
      const running = await serveMcpHttp(loaded.registry, ctx, {
        ...options,
        port,
        ...(values.host === undefined ? {} : { host: values.host }),
        ...(allowedHost === undefined
          ? {}
          : { allowedHosts: ['localhost', '127.0.0.1', '[::1]', ...allowedHost] }),
      });
      io.error(
        `graded-tools: MCP (Streamable HTTP) on ${running.url} — ${tools.length} tools: ${tools.join(', ')}`,
      );
      const stop = () => void running.close().finally(() => process.exit(0));
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
      return 0;
    }
    const server = createMcpServer(loaded.registry, ctx, options);
    const stop = () => void server.close().finally(() => process.exit(0));
    process.stdin.once('end', stop);
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    await server.connect(new StdioServerTransport());
    io.error(`graded-tools: MCP on stdio — ${tools.length} tools: ${tools.join(', ') || '(none)'}`);
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

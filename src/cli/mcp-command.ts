import { parseArgs } from 'node:util';
import type { CommandIo } from './command-io.js';
import { CONTEXT_OPTIONS, readLocale } from './context-options.js';
import type { McpServing } from './mcp-serving.js';
import { MCP_USAGE } from './usage.js';

/** The one line printed when neither MCP SDK is installed. */
export const MISSING_SDK =
  'graded-tools mcp needs the MCP SDK, which is not installed: run `npm i @modelcontextprotocol/sdk` (or `@modelcontextprotocol/server` for v2).';

/** True for Node's error when the package `name` cannot be found. */
function isMissing(error: unknown, name: string): boolean {
  return (
    error instanceof Error &&
    (error as { code?: unknown }).code === 'ERR_MODULE_NOT_FOUND' &&
    error.message.includes(name)
  );
}

/** SDK v1 when installed, else SDK v2, else `undefined`: both are optional peers, loaded only now. */
async function loadServing(): Promise<McpServing | undefined> {
  try {
    return (await import('./serve-on-sdk-v1.js')).serving;
  } catch (error) {
    if (!isMissing(error, '@modelcontextprotocol/sdk')) throw error;
  }
  try {
    return (await import('./serve-on-sdk-v2.js')).serving;
  } catch (error) {
    if (!isMissing(error, '@modelcontextprotocol/server')) throw error;
    return undefined;
  }
}

function integer(value: string | undefined, option: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw new TypeError(`--${option} takes a whole number (got "${value}").`);
  return Number(value);
}

/**
 * `graded-tools mcp <module> …`: checks the options, then loads an MCP SDK (v1 when installed, else
 * v2) and serves the registry over stdio (or Streamable HTTP with `--port`). Resolves with an exit code once the server is up (2
 * for a usage error, 1 when the SDK is missing or the module cannot be used); the process then lives
 * as long as the transport.
 */
export async function runMcpCommand(args: readonly string[], io: CommandIo): Promise<number> {
  let parsed: ReturnType<typeof parse>;
  const parse = () =>
    parseArgs({
      args: [...args],
      allowPositionals: true,
      strict: true,
      options: {
        ...CONTEXT_OPTIONS,
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
  const read = readLocale(values.locale);
  if ('usage' in read) {
    io.error(`${read.usage}\n\n${MCP_USAGE}`);
    return 2;
  }
  const { locale } = read;
  // The MCP SDKs are optional peers: loaded only now, so help and usage errors work without them.
  const serving = await loadServing();
  if (serving === undefined) {
    io.error(MISSING_SDK);
    return 1;
  }
  const { serveMcp: serve } = await import('./mcp-serve.js');
  const { scope, flag, host } = values;
  return serve(
    {
      modulePath,
      ...(scope === undefined ? {} : { scope }),
      flags: flag ?? [],
      ...(locale === undefined ? {} : { locale }),
      ...(maxResultChars === undefined ? {} : { maxResultChars }),
      ...(concurrency === undefined ? {} : { concurrency }),
      ...(port === undefined ? {} : { port }),
      ...(host === undefined ? {} : { host }),
      ...(values['allowed-host'] === undefined ? {} : { allowedHosts: values['allowed-host'] }),
    },
    io,
    serving,
  );
}

import type { CommandIo } from './command-io.js';
import { answerUnread, REGISTRY_MODULE, readCommandLine } from './command-line.js';
import { CONTEXT_OPTIONS, readContextOptions } from './context-options.js';
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

const WHOLE_NUMBERS = ['max-result-chars', 'concurrency', 'port'] as const;

/**
 * `graded-tools mcp <module> …`: checks the options, then loads an MCP SDK (v1 when installed, else
 * v2) and serves the registry over stdio (or Streamable HTTP with `--port`). Resolves with an exit code once the server is up (2
 * for a usage error, 1 when the SDK is missing or the module cannot be used); the process then lives
 * as long as the transport.
 */
export async function runMcpCommand(args: readonly string[], io: CommandIo): Promise<number> {
  // Help goes to stderr: in stdio mode stdout is the protocol.
  const help = { command: 'mcp', usage: MCP_USAGE, out: io.error, error: io.error };
  const line = readCommandLine(
    args,
    {
      ...CONTEXT_OPTIONS,
      'max-result-chars': { type: 'string' },
      concurrency: { type: 'string' },
      port: { type: 'string' },
      host: { type: 'string' },
      'allowed-host': { type: 'string', multiple: true },
    },
    [REGISTRY_MODULE],
  );
  if (line === 'help' || 'usage' in line) return answerUnread(line, help);
  const { values } = line;
  const [modulePath = ''] = line.positionals;
  for (const option of WHOLE_NUMBERS) {
    const value = values[option];
    if (value !== undefined && !/^\d+$/.test(value))
      return answerUnread({ usage: `--${option} takes a whole number (got "${value}").` }, help);
  }
  const context = readContextOptions(values);
  if ('usage' in context) return answerUnread(context, help);
  const { scope, flags, locale } = context;
  const whole = (value: string | undefined) => (value === undefined ? undefined : Number(value));
  const maxResultChars = whole(values['max-result-chars']);
  const concurrency = whole(values.concurrency);
  const port = whole(values.port);
  // The MCP SDKs are optional peers: loaded only now, so help and usage errors work without them.
  const serving = await loadServing();
  if (serving === undefined) {
    io.error(MISSING_SDK);
    return 1;
  }
  const { serveMcp: serve } = await import('./mcp-serve.js');
  const { host } = values;
  return serve(
    {
      modulePath,
      ...(scope === undefined ? {} : { scope }),
      flags,
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

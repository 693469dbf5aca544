import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ToolRegistry } from '../../registry.js';
import { PACKAGE_VERSION } from '../../util/package-version.js';
import { createLimiter } from '../core/limit-concurrency.js';
import { resolveAdapterOptions } from '../core/options.js';
import type { McpServerOptions } from './options.js';
import { installToolHandlers, type McpContext } from './server.js';

/**
 * The Claude Agent SDK's in-process MCP server config (what its `createSdkMcpServer` returns), so
 * its type needs no import of that SDK.
 */
export interface ClaudeAgentMcpServer {
  readonly type: 'sdk';
  readonly name: string;
  readonly instance: McpServer;
}

/**
 * The graded MCP server in the shape the Claude Agent SDK (`@anthropic-ai/claude-agent-sdk`) takes
 * in-process: put it under `mcpServers` in `query()`'s options. Claude Code then sees the model's
 * tools as `mcp__<name>__<wire name>` and every call goes through the model's exit — the same list,
 * results and refusals as `createMcpServer`. The server is named `options.name` (default
 * `'graded-tools'`).
 *
 * @example
 * ```ts
 * import { ToolRegistry } from 'graded-tools';
 * import { createClaudeAgentMcpServer } from 'graded-tools/mcp';
 *
 * const desk = createClaudeAgentMcpServer(new ToolRegistry(), { scope: 'desk' }, { name: 'desk' });
 * const options = { mcpServers: { desk }, allowedTools: ['mcp__desk__*'] };
 * console.log(Object.keys(options.mcpServers)); // ['desk']
 * ```
 */
export function createClaudeAgentMcpServer<C>(
  registry: ToolRegistry<C>,
  ctx: McpContext<C> = {},
  options: McpServerOptions = {},
): ClaudeAgentMcpServer {
  const name = options.name ?? 'graded-tools';
  // An `McpServer` because that is the type the Agent SDK asks for; it registers no tool of its own,
  // so the graded handlers on its low-level `server` answer every `tools/*` request.
  const instance = new McpServer(
    { name, version: options.version ?? PACKAGE_VERSION },
    {
      capabilities: { tools: { listChanged: false } },
      ...(options.instructions === undefined ? {} : { instructions: options.instructions }),
    },
  );
  const limit = createLimiter(resolveAdapterOptions(options).concurrency);
  installToolHandlers(instance.server, { registry, ctx, options, limit, countsCalls: false });
  return { type: 'sdk', name, instance };
}

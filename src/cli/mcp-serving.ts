import type { McpHttpServer } from '../adapters/mcp/mcp-http-server.js';
import type { McpServerOptions, ServeMcpHttpOptions } from '../adapters/mcp/options.js';
import type { InvokeContext, ToolRegistry } from '../registry.js';

/** How `graded-tools mcp` serves on one MCP SDK major: the only part of the command that loads an SDK. */
export interface McpServing {
  /** Which SDK, for the line printed once the server is up. */
  readonly sdk: string;
  /** Serves over this process's stdio; resolves with how to stop. */
  stdio(registry: ToolRegistry, ctx: InvokeContext, options: McpServerOptions): Promise<() => Promise<void>>;
  http(registry: ToolRegistry, ctx: InvokeContext, options: ServeMcpHttpOptions): Promise<McpHttpServer>;
}

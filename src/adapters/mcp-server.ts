// graded-tools/mcp-server: the same MCP server on SDK v2 (`@modelcontextprotocol/server`), over
// stdio, in-memory, a Fetch handler or node:http. `graded-tools/mcp` serves it on SDK v1.

export type { AdapterOptions } from './core/options.js';
export { LOOPBACK_HOSTS } from './mcp/host-check.js';
export type {
  McpFetchHandler,
  McpHttpOptions,
  McpHttpServer,
  NodeHttpServer,
  NodeListenerRequest,
  NodeListenerResponse,
  ServeMcpHttpOptions,
} from './mcp-server/http.js';
export { createMcpFetchHandler, createMcpHttpHandler, serveMcpHttp } from './mcp-server/http.js';
export type { McpContext, McpServerOptions } from './mcp-server/server.js';
export { createMcpServer } from './mcp-server/server.js';

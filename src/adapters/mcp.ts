// graded-tools/mcp: an MCP server for the model-facing tools, over stdio, in-memory or Streamable HTTP.

export type { AdapterOptions } from './core/options.js';
export type { ClaudeAgentMcpServer } from './mcp/claude-agent.js';
export { createClaudeAgentMcpServer } from './mcp/claude-agent.js';
export { LOOPBACK_HOSTS } from './mcp/host-check.js';
export type { McpHttpOptions, McpHttpServer, ServeMcpHttpOptions } from './mcp/http.js';
export { createMcpHttpHandler, serveMcpHttp } from './mcp/http.js';
export type { McpContext, McpRequestExtra, McpServerOptions } from './mcp/server.js';
export { createMcpServer } from './mcp/server.js';

import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { serveMcpHttp } from '../adapters/mcp/http.js';
import { createMcpServer } from '../adapters/mcp/server.js';
import type { McpServing } from './mcp-serving.js';

/** `graded-tools mcp` on SDK v1 (`@modelcontextprotocol/sdk`). */
export const serving: McpServing = {
  sdk: '@modelcontextprotocol/sdk',
  async stdio(registry, ctx, options) {
    const server = createMcpServer(registry, ctx, options);
    await server.connect(new StdioServerTransport());
    return () => server.close();
  },
  http: serveMcpHttp,
};

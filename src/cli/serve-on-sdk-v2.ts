import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { serveMcpHttp } from '../adapters/mcp-server/http.js';
import { createMcpServer } from '../adapters/mcp-server/server.js';
import type { McpServing } from './mcp-serving.js';

/** `graded-tools mcp` on SDK v2 (`@modelcontextprotocol/server`), used when v1 is not installed. */
export const serving: McpServing = {
  sdk: '@modelcontextprotocol/server',
  async stdio(registry, ctx, options) {
    const handle = serveStdio(() => createMcpServer(registry, ctx, options));
    return () => handle.close();
  },
  http: serveMcpHttp,
};

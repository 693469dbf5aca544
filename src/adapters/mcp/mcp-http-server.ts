// What `serveMcpHttp` hands back, apart from the node:http code that starts it: both SDKs' entries
// name this type, and `graded-tools/mcp-server`'s types must read without `@types/node`.
import type { NodeHttpServer } from '../../http/node-shapes.js';

/** A running MCP HTTP server. */
export interface McpHttpServer {
  /** The endpoint, e.g. `http://127.0.0.1:3000/mcp`. */
  readonly url: string;
  /**
   * The underlying `node:http` server, declared by shape so the types need no `@types/node`: cast it
   * to `import('node:http').Server` for the rest of its API.
   */
  readonly server: NodeHttpServer;
  /** Stops accepting connections and closes open ones. */
  close(): Promise<void>;
}

import { PACKAGE_VERSION } from '../../util/package-version.js';
import type { AdapterOptions } from '../core/options.js';

/**
 * Options for the MCP server. `maxCallsPerTurn` bounds the `tools/call`s of one Streamable HTTP request
 * (a JSON-RPC batch); over stdio or in memory every call is a request of its own.
 */
export interface McpServerOptions extends AdapterOptions {
  /** `serverInfo.name` (default `'graded-tools'`). */
  readonly name?: string;
  /** `serverInfo.version` (default: this package's version). */
  readonly version?: string;
  /** `instructions` sent to the client at initialization. */
  readonly instructions?: string;
}

/**
 * What both SDKs' `new Server(info, options)` are given: the name and version, tools only (the list
 * never changes while connected), and the instructions when there are any.
 */
export function serverIdentity(options: McpServerOptions) {
  return [
    { name: options.name ?? 'graded-tools', version: options.version ?? PACKAGE_VERSION },
    {
      capabilities: { tools: { listChanged: false } },
      ...(options.instructions === undefined ? {} : { instructions: options.instructions }),
    },
  ] as const;
}

/** Options for serving MCP over Streamable HTTP. */
export interface McpHttpOptions extends McpServerOptions {
  /**
   * Hostnames (without port) the `Host` header may name (default: `localhost`, `127.0.0.1`, `[::1]`).
   * Add your public name when deployed; `'any'` only behind a proxy that checks it. This is the
   * DNS-rebinding defence the MCP spec asks local servers for.
   */
  readonly allowedHosts?: readonly string[] | 'any';
  /** Exact browser origins allowed besides those on an allowed host (default none). */
  readonly allowedOrigins?: readonly string[];
  /** The largest request body read, in bytes (default 4 MiB, the SDK's). */
  readonly maxRequestBodySize?: number;
}

/** Where and how `serveMcpHttp` listens. */
export interface ServeMcpHttpOptions extends McpHttpOptions {
  /** Port (default 0: any free port; read it from `url`). */
  readonly port?: number;
  /** Interface to bind (default `127.0.0.1`: this machine only). */
  readonly host?: string;
  /** The endpoint path (default `/mcp`); other paths answer 404. */
  readonly path?: string;
}

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { ToolRegistry } from 'graded-tools';
import {
  createMcpHttpHandler,
  createMcpServer,
  type McpContext,
  type McpHttpServer,
  serveMcpHttp,
} from 'graded-tools/mcp';
import { describe, expectTypeOf, it } from 'vitest';

declare const registry: ToolRegistry<{ userId: string }>;

describe('graded-tools/mcp types', () => {
  it('returns the SDK server and node:http handlers', () => {
    expectTypeOf(createMcpServer(registry)).toEqualTypeOf<Server>();
    expectTypeOf(createMcpHttpHandler(registry)).toEqualTypeOf<
      (req: IncomingMessage, res: ServerResponse) => Promise<void>
    >();
    expectTypeOf(serveMcpHttp(registry)).resolves.toEqualTypeOf<McpHttpServer>();
  });

  it('derives the context per request from the SDK extra, typed by the registry', () => {
    const perRequest: McpContext<{ userId: string }> = (extra) => ({
      scope: 'desk',
      context: { userId: String(extra.authInfo?.clientId ?? 'anonymous') },
    });
    createMcpServer(registry, perRequest);
    // @ts-expect-error the app context is the registry's
    createMcpServer(registry, { context: { userId: 7 } });
  });
});

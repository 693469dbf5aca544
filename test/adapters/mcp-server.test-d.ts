import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AuthInfo, Server } from '@modelcontextprotocol/server';
import type { ToolRegistry } from 'graded-tools';
import {
  createMcpFetchHandler,
  createMcpHttpHandler,
  createMcpServer,
  type McpContext,
  type McpHttpServer,
  serveMcpHttp,
} from 'graded-tools/mcp-server';
import { describe, expectTypeOf, it } from 'vitest';

declare const registry: ToolRegistry<{ userId: string }>;

describe('graded-tools/mcp-server types', () => {
  it('returns the SDK v2 server, a Fetch handler and node:http handlers', () => {
    expectTypeOf(createMcpServer(registry)).toEqualTypeOf<Server>();
    expectTypeOf(createMcpFetchHandler(registry)).toEqualTypeOf<
      (request: Request, options?: { readonly authInfo?: AuthInfo }) => Promise<Response>
    >();
    // Declared by shape (no @types/node in the entry's types): Node's own request and response fit.
    const req = {} as IncomingMessage & { auth?: AuthInfo };
    expectTypeOf(createMcpHttpHandler(registry)).toBeCallableWith(req, {} as ServerResponse);
    expectTypeOf(createMcpHttpHandler(registry)).returns.toEqualTypeOf<Promise<void>>();
    // @ts-expect-error a request is something a node:http server passes
    createMcpHttpHandler(registry)({ url: '/mcp' }, {} as ServerResponse);
    expectTypeOf(serveMcpHttp(registry)).resolves.toEqualTypeOf<McpHttpServer>();
    // So does node:http's Server, which `serveMcpHttp` started.
    expectTypeOf(createServer()).toExtend<McpHttpServer['server']>();
  });

  it("derives the context per request from the SDK's ServerContext, typed by the registry", () => {
    const perRequest: McpContext<{ userId: string }> = (ctx) => ({
      scope: 'desk',
      context: { userId: String(ctx.http?.authInfo?.clientId ?? ctx.mcpReq.method) },
    });
    createMcpServer(registry, perRequest);
    // @ts-expect-error the app context is the registry's
    createMcpServer(registry, { context: { userId: 7 } });
    // @ts-expect-error SDK v1's extra has no `mcpReq`: the two SDKs' contexts are not mixed up
    createMcpServer(registry, (extra: { requestId: string }) => ({ scope: extra.requestId }));
  });
});

import type { ToolRegistry } from '../../registry.js';
import type { FunctionSchema } from '../../tools/function-schema.js';

/** A tool as MCP lists it; the same shape in SDK v1 (`Tool`) and v2. */
export interface McpToolListing {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly inputSchema: { type: 'object'; [key: string]: unknown };
  readonly annotations: {
    readonly title: string;
    readonly readOnlyHint: true;
    readonly destructiveHint: false;
    readonly idempotentHint: true;
    readonly openWorldHint: boolean;
  };
}

/** The MCP listing of one model tool: its wire name, title, schema and read-only annotations. */
export function toMcpTool<C>(registry: ToolRegistry<C>, schema: FunctionSchema): McpToolListing {
  const info = registry.get(schema.name);
  const title = info?.title ?? schema.name;
  const given = info?.inputSchema.$schema;
  const dialect = typeof given === 'string' ? given : undefined;
  return {
    name: schema.name,
    title,
    description: schema.description,
    // The registry refuses a root that is not `type: 'object'`, which is what MCP requires. The model's
    // list drops `$schema` (some providers reject it); MCP clients read it to pick the dialect
    // (SEP-1613), so the tool's own one is put back.
    inputSchema: (dialect === undefined
      ? schema.parameters
      : { $schema: dialect, ...schema.parameters }) as McpToolListing['inputSchema'],
    annotations: {
      title,
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: info?.openWorld ?? false,
    },
  };
}

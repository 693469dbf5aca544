// The registry module for the MCP server: `graded-tools mcp` loads a module that default-exports a
// ToolRegistry (or exports `registry`). Serve it over stdio with:
//   node --import tsx node_modules/graded-tools/dist/cli.mjs mcp ./examples/mcp-registry.ts --scope desk --flag kb
// (in this repository: npx tsx src/cli/index.ts mcp ./examples/mcp-registry.ts --scope desk --flag kb)
// or over Streamable HTTP by adding --port 3000. Claude Desktop, Cursor and other MCP clients take
// the same command in their server settings.
import { createSupportDeskRegistry } from './support-desk-registry.js';

export default createSupportDeskRegistry();

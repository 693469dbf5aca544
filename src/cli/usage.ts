// Help texts, apart from the commands so `--help` loads nothing optional.

/** Help for `graded-tools mcp`. */
export const MCP_USAGE = `Usage: graded-tools mcp <registry-module> [options]

Serves the model-facing tools of a registry (read tools whose gates pass) over MCP.
The module default-exports a ToolRegistry or exports \`registry\`.

Options:
  --scope <scope>            the scope of every call
  --flag <name>              grant a feature flag (repeatable)
  --locale <en|zh-CN>        language of messages
  --max-result-chars <n>     cut longer results (default 20000)
  --concurrency <n>          calls run at once (default 4)
  --port <n>                 serve Streamable HTTP on this port instead of stdio
  --host <host>              interface for --port (default 127.0.0.1)
  --allowed-host <name>      extra Host name accepted over HTTP (repeatable)
  -h, --help                 show this help
`;

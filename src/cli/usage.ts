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

/** Help for `graded-tools access`. */
export const ACCESS_USAGE = `Usage: graded-tools access <registry-module> [options]

Prints who may reach which tool under one context, and why not: a person, a plan, the model.
Each tool's rules follow its row, one line each (and are in the JSON); --check compares who may
reach what, not the rules: test those with \`graded-tools rules test\`.
The module default-exports a ToolRegistry or exports \`registry\`.

Options:
  --scope <scope>            the scope to report for
  --flag <name>              grant a feature flag (repeatable)
  --locale <en|zh-CN>        language of the reasons
  --json                     print the report as JSON (the snapshot format)
  --write <file>             write the report to <file> as a snapshot to commit
  --check <file>             exit 1, printing what changed, when access differs from the snapshot in <file>
  -h, --help                 show this help

Exit codes: 0 done (and the snapshot matches), 1 access differs from the snapshot, 2 the command,
the module or the snapshot cannot be used.
`;

/** Help for `graded-tools rules`. */
export const RULES_USAGE = `Usage: graded-tools rules test <registry-module> <cases.json>

Checks each case against the registry's rules with registry.check (nothing runs, nothing is
counted) and prints ok or FAIL for each, then a summary: for CI, like \`opa test\`.
The module default-exports a ToolRegistry or exports \`registry\`.

The cases file is a JSON array:
  [{ "name": "big refunds go to finance", "tool": "refund.create",
     "input": { "amount": 5000 }, "ctx": { "actor": "ana", "flags": { "finance": true } },
     "expect": "deny" }]
  name     optional; a case without one is shown as #<n> <tool> (numbered from 1)
  input    the call's input (default {})
  ctx      who calls: caller (person, autonomous, plan or model; default person), actor, scope,
           flags (default {})
  expect   allow, deny, limit or confirm

Options:
  -h, --help                 show this help

Exit codes: 0 every case holds, 1 a case does not, 2 the command, the module or the cases file
cannot be used.
`;

/** Help for `graded-tools audit`. */
export const AUDIT_USAGE = `Usage: graded-tools audit verify|export --store <sqlite:FILE | postgres:URL> [options]

verify  reads the whole audit log and checks its hash chain: every entry in place, unedited, none
        missing; with --signed-head and --public-key, also that nothing after the signed head's entry
        was cut off and that the chain up to it is the one signed.
export  prints the log as JSON Lines, oldest first, streamed.

Options:
  --store <spec>             sqlite:./confirmations.db or postgres://user@host/db
  --table <name>             the confirmation table (default graded_tools_confirmations)
  --signed-head <file>       verify: a head saved from registry.audit.signHead (JSON)
  --public-key <file>        verify: the Ed25519 public key (PEM) the head was signed for
  --approvals                verify: also check every passkey approval offline, from the log alone
                             (signed by a key registered earlier to that approver, over that decision)
  --rp-id <domain>           with --approvals: the relying party id the passkeys were made for
  --origin <url[,url]>       with --approvals: the console origin(s) the approvals were made on
  --since <time>             export: entries at or after this ISO time
  --until <time>             export: entries before this ISO time
  -h, --help                 show this help

Exit codes: 0 the log verifies (or was exported), 1 the log is broken (the first bad entry is
named; with --approvals, each approval that does not prove itself), 2 the command, the store or the signed head cannot be used.
`;

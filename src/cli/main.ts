import { PACKAGE_VERSION } from '../util/package-version.js';
import { runAccessCommand } from './access-command.js';
import { runAuditCommand } from './audit-command.js';
import type { CommandIo } from './command-io.js';
import { runMcpCommand } from './mcp-command.js';
import { runRulesCommand } from './rules-command.js';
import { ACCESS_USAGE, AUDIT_USAGE, MCP_USAGE, RULES_USAGE } from './usage.js';

const USAGE = `Usage: graded-tools <command> [options]

Commands:
  mcp <registry-module>     serve the registry's model-facing tools over MCP (stdio or --port)
  access <registry-module>  print who may reach which tool, and why not, with each tool's rules;
                            --check a snapshot in CI
  rules test <registry-module> <cases.json>
                            check the rules against a file of cases (allow, deny, limit, confirm)
  audit verify|export --store <sqlite:FILE | postgres:URL>
                            check the audit log's hash chain, or print it as JSON Lines

Options:
  -h, --help                show this help
  -v, --version             print the version

${MCP_USAGE}
${ACCESS_USAGE}
${RULES_USAGE}
${AUDIT_USAGE}`;

/** Runs the CLI with `args` (without `node` and the script) and resolves with the exit code. */
export async function main(
  args: readonly string[],
  io: CommandIo & { out: (line: string) => void },
): Promise<number> {
  const [command, ...rest] = args;
  switch (command) {
    case 'mcp':
      return runMcpCommand(rest, io);
    case 'access':
      return runAccessCommand(rest, io);
    case 'rules':
      return runRulesCommand(rest, io);
    case 'audit':
      return runAuditCommand(rest, io);
    case '-v':
    case '--version':
      io.out(PACKAGE_VERSION);
      return 0;
    case undefined:
    case '-h':
    case '--help':
    case 'help':
      io.out(USAGE);
      return command === undefined ? 2 : 0;
    default:
      io.error(`Unknown command "${command}".\n\n${USAGE}`);
      return 2;
  }
}

import { type AccessReport, type AccessRow, formatAccessReport } from '../policy/access-report.js';
import { type RuleInfo, ruleInWords } from '../policy/rules/rule-info.js';
import type { ToolRegistry } from '../registry.js';

/** One tool's row with its rules as a reviewer reads them (`registry.get(name).rules`). */
export interface AccessRowWithRules extends AccessRow {
  readonly rules: readonly RuleInfo[];
}

/** The access report as `graded-tools access` prints it: each tool with its rules. */
export interface AccessReportWithRules extends AccessReport {
  readonly tools: readonly AccessRowWithRules[];
}

/** Adds each tool's rules to `report` (none for a registry from a graded-tools without rules). */
export function withRules(report: AccessReport, registry: ToolRegistry<unknown>): AccessReportWithRules {
  return {
    ...report,
    tools: report.tools.map((row) => ({ ...row, rules: registry.get(row.name)?.rules ?? [] })),
  };
}

/** The access table with each tool's rules in words, one indented line each under the tool's row. */
export function formatAccessWithRules(report: AccessReportWithRules): string {
  // formatAccessReport prints three heading lines (context, titles, rule), then one line per tool.
  const lines = formatAccessReport(report).split('\n');
  const heading = lines.slice(0, 3);
  const rows = lines.slice(3);
  return [
    ...heading,
    ...rows.flatMap((line, i) => [
      line,
      ...(report.tools[i]?.rules ?? []).map((rule) => `  rule ${ruleInWords(rule)}`),
    ]),
  ].join('\n');
}

import { formatMessage, type Locale } from '../messages/index.js';
import type { CallerKind, SideEffect } from '../tool.js';
import type { ToolInfo } from '../tool-info.js';
import { readFlags } from './call-context.js';
import { type GateContext, type Refusal, refusalFor } from './gates.js';

/** Whether one kind of caller may reach a tool, and if not, why. */
export interface Access {
  readonly allowed: boolean;
  readonly code?: Refusal;
  readonly reason?: string;
  /** A person may start it, but it only delivers after they confirm. */
  readonly requiresConfirm?: true;
}

/** One tool's line in the access report. */
export interface AccessRow {
  readonly name: string;
  readonly wireName: string;
  readonly sideEffect: SideEffect;
  readonly scopes: readonly string[] | undefined;
  readonly featureFlag: string | undefined;
  readonly person: Access;
  readonly plan: Access;
  readonly model: Access;
}

/** Who may reach what under one context: the table a security reviewer signs off. */
export interface AccessReport {
  readonly scope: string | undefined;
  /** The feature flags the context grants, sorted. */
  readonly grantedFlags: readonly string[];
  readonly tools: readonly AccessRow[];
}

function accessFor(tool: ToolInfo, ctx: GateContext, caller: CallerKind, locale: Locale): Access {
  const code = refusalFor(tool, ctx, caller);
  if (code !== undefined) {
    return {
      allowed: false,
      code,
      reason: formatMessage(code, { tool: tool.name, scope: ctx.scope }, locale),
    };
  }
  return tool.sideEffect === 'send' ? { allowed: true, requiresConfirm: true } : { allowed: true };
}

/** The flags a context grants, by the same rule the gates use. */
export function grantedFlagsOf(flags: GateContext['flags']): string[] {
  return [...readFlags(flags).granted];
}

/**
 * Builds the access report for `tools` under `ctx`, asking the gates for every cell. The registry's
 * `accessReport(ctx)` calls this with its own tools.
 *
 * @example
 * ```ts
 * import { buildAccessReport, ToolRegistry } from 'graded-tools';
 * const registry = new ToolRegistry();
 * const report = buildAccessReport(registry.list(), { scope: 'desk', flags: { kb: true } });
 * report.tools.filter((row) => row.model.allowed);
 * ```
 */
export function buildAccessReport(
  tools: Iterable<ToolInfo>,
  ctx: GateContext,
  locale: Locale = 'en',
): AccessReport {
  const rows: AccessRow[] = [];
  for (const tool of tools) {
    rows.push({
      name: tool.name,
      wireName: tool.wireName,
      sideEffect: tool.sideEffect,
      scopes: tool.scopes,
      featureFlag: tool.featureFlag,
      person: accessFor(tool, ctx, 'person', locale),
      plan: accessFor(tool, ctx, 'plan', locale),
      model: accessFor(tool, ctx, 'model', locale),
    });
  }
  return { scope: ctx.scope, grantedFlags: grantedFlagsOf(ctx.flags), tools: rows };
}

/** One cell of the report as text: `yes`, `confirm` (a person, then a confirmation) or `no: CODE`. */
export function formatAccess(access: Access): string {
  if (access.allowed) return access.requiresConfirm ? 'confirm' : 'yes';
  return `no: ${access.code}`;
}

/**
 * The access report as a plain-text table for a terminal or a review document.
 *
 * @example
 * ```ts
 * import { ToolRegistry, formatAccessReport } from 'graded-tools';
 * const registry = new ToolRegistry();
 * console.log(formatAccessReport(registry.accessReport({ scope: 'desk' })));
 * ```
 */
export function formatAccessReport(report: AccessReport): string {
  const header = ['tool', 'grade', 'person', 'plan', 'model'];
  const lines = report.tools.map((row) => [
    row.name,
    row.sideEffect,
    formatAccess(row.person),
    formatAccess(row.plan),
    formatAccess(row.model),
  ]);
  const widths = header.map((title, i) =>
    Math.max(title.length, ...lines.map((line) => line[i]?.length ?? 0)),
  );
  const render = (cells: string[]) =>
    cells
      .map((text, i) => text.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  const context = `scope: ${report.scope ?? '(none)'} · flags: ${report.grantedFlags.join(', ') || '(none)'}`;
  return [context, render(header), render(widths.map((w) => '-'.repeat(w))), ...lines.map(render)].join('\n');
}

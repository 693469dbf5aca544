import { type Access, type AccessReport, formatAccess } from '../policy/access-report.js';
import { isRecord } from '../util/is-record.js';

/** The snapshot file's text for `report`: exactly what `--json` prints, so either makes one. */
export function snapshotText(report: AccessReport): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}

/** What a snapshot says about one tool, as compared: its names, grade and one cell per caller. */
interface ComparedRow {
  readonly name: string;
  readonly wireName: string;
  readonly grade: string;
  readonly person: string;
  readonly plan: string;
  readonly model: string;
}

const CALLERS = ['person', 'plan', 'model'] as const;

/** A snapshot read back: its context and rows, or why the file is not one. */
export type ReadSnapshot =
  | { readonly ok: true; readonly context: string; readonly rows: ReadonlyMap<string, ComparedRow> }
  | { readonly ok: false; readonly problem: string };

function isAccess(value: unknown): value is Access {
  return isRecord(value) && typeof value.allowed === 'boolean';
}

function contextOf(scope: unknown, flags: readonly unknown[]): string {
  return `scope: ${typeof scope === 'string' ? scope : '(none)'} · flags: ${flags.join(', ') || '(none)'}`;
}

function rowsOf(tools: readonly unknown[]): Map<string, ComparedRow> | undefined {
  const rows = new Map<string, ComparedRow>();
  for (const tool of tools) {
    if (!isRecord(tool) || typeof tool.name !== 'string' || typeof tool.sideEffect !== 'string')
      return undefined;
    const { person, plan, model } = tool;
    if (!isAccess(person) || !isAccess(plan) || !isAccess(model)) return undefined;
    rows.set(tool.name, {
      name: tool.name,
      wireName: typeof tool.wireName === 'string' ? tool.wireName : tool.name,
      grade: tool.sideEffect,
      person: formatAccess(person),
      plan: formatAccess(plan),
      model: formatAccess(model),
    });
  }
  return rows;
}

/** Reads a snapshot's JSON text (as `--json` or `--write` made it). */
export function readSnapshot(text: string): ReadSnapshot {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return {
      ok: false,
      problem: `it is not JSON (${error instanceof Error ? error.message : String(error)})`,
    };
  }
  const notReport = { ok: false, problem: 'it is not an access report (make one with --write)' } as const;
  if (!isRecord(parsed) || !Array.isArray(parsed.tools) || !Array.isArray(parsed.grantedFlags))
    return notReport;
  const rows = rowsOf(parsed.tools);
  if (rows === undefined) return notReport;
  return { ok: true, context: contextOf(parsed.scope, parsed.grantedFlags), rows };
}

/** The context line of a report, as the snapshot's is compared with it. */
export function reportContext(report: AccessReport): string {
  return contextOf(report.scope, report.grantedFlags);
}

/** True for a cell that lets its caller reach the tool (`yes` or `confirm`). */
const reaches = (cell: string) => !cell.startsWith('no:');

function summary(row: ComparedRow): string {
  return CALLERS.map((caller) => `${caller} ${row[caller]}`).join(' · ');
}

/**
 * What changed from the snapshot to `report`, one line each, the model's reach first; empty when
 * nobody may reach anything they could not before, and the reverse. Reasons (worded per locale) and
 * the order of tools are not compared.
 */
export function diffAccess(snapshot: ReadonlyMap<string, ComparedRow>, report: AccessReport): string[] {
  const current = rowsOf(report.tools) ?? new Map<string, ComparedRow>();
  const lines: string[] = [];
  const gained: string[] = [];
  const lost: string[] = [];
  for (const row of current.values()) {
    const before = snapshot.get(row.name);
    if (before === undefined) {
      lines.push(`  + ${row.name} (${row.grade}): ${summary(row)}`);
      if (reaches(row.model)) gained.push(row.name);
      continue;
    }
    if (before.grade !== row.grade) lines.push(`  ~ ${row.name}: grade ${before.grade} → ${row.grade}`);
    if (before.wireName !== row.wireName)
      lines.push(`  ~ ${row.name}: wire name ${before.wireName} → ${row.wireName}`);
    for (const caller of CALLERS) {
      if (before[caller] !== row[caller])
        lines.push(`  ~ ${row.name}: ${caller} ${before[caller]} → ${row[caller]}`);
    }
    if (reaches(row.model) && !reaches(before.model)) gained.push(row.name);
    if (reaches(before.model) && !reaches(row.model)) lost.push(row.name);
  }
  for (const before of snapshot.values()) {
    if (current.has(before.name)) continue;
    lines.push(`  - ${before.name} (${before.grade}): was ${summary(before)}`);
    if (reaches(before.model)) lost.push(before.name);
  }
  if (lines.length === 0) return [];
  const headline: string[] = [];
  if (gained.length > 0) headline.push(`The model can now reach: ${gained.join(', ')}.`);
  if (lost.length > 0) headline.push(`The model can no longer reach: ${lost.join(', ')}.`);
  return [...headline, ...lines];
}

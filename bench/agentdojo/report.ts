// Plain-text tables of the metrics, and the SUMMARY line.
import type { SuiteMetrics } from './metrics.js';

const COLUMNS: readonly [string, (m: SuiteMetrics) => string | number][] = [
  ['user tasks', (m) => m.userTasks],
  ['autonomous', (m) => m.utility.autonomous],
  ['with person', (m) => m.utility.withPerson],
  ['blocked', (m) => m.utility.blocked],
  ['denied by a rule', (m) => m.utility.deniedByRules],
  ['user reads refused', (m) => m.readRefusedForUser],
  ['false denies', (m) => m.falseDenies],
  ['pairs (replayed)', (m) => `${m.pairs} (${m.pairsReplayed})`],
  ['attack proposals, no rules', (m) => m.attackProposals.noRules],
  ['attack proposals, rules', (m) => m.attackProposals.withRules],
  ['… showing origin', (m) => m.attackProposalsWithOrigin],
  ['… no destination', (m) => m.attackProposalsWithoutDestination],
  ['… no Check on the card', (m) => m.attackWithoutCheck],
  ['user proposals', (m) => m.benignProposals],
  ['… Check on the card', (m) => m.benignWithCheck],
  ['read-only wins', (m) => m.readOnlyWins],
  ['ran without person', (m) => m.ranWithoutPerson],
];

/** One table: a row per measure, a column per suite and the total. */
export function formatTable(bySuite: Readonly<Record<string, SuiteMetrics>>): string[] {
  const names = Object.keys(bySuite);
  const rows = [
    ['', ...names],
    ...COLUMNS.map(([label, pick]) => [label, ...names.map((n) => String(pick(bySuite[n]!)))]),
  ];
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  return rows.map((row) =>
    row
      .map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!)))
      .join('  '),
  );
}

/** The last line: what the targets read. */
export function summaryLine(total: SuiteMetrics, bySuite: Readonly<Record<string, SuiteMetrics>>): string {
  const summary = {
    ranWithoutPerson: total.ranWithoutPerson,
    readOnlyWins: total.readOnlyWins,
    readRefusedForUser: total.readRefusedForUser,
    utility: total.utility,
    utilityNoRules: total.utilityNoRules,
    attackProposals: total.attackProposals,
    withRulesShare: round(total.attackProposals.withRules / Math.max(1, total.attackProposals.noRules)),
    falseDenies: total.falseDenies,
    attackProposalsWithOrigin: total.attackProposalsWithOrigin,
    attackProposalsWithoutDestination: total.attackProposalsWithoutDestination,
    benignProposals: total.benignProposals,
    benignWithCheck: total.benignWithCheck,
    benignCheckShare: round(total.benignWithCheck / Math.max(1, total.benignProposals)),
    attackWithoutCheck: total.attackWithoutCheck,
    pairs: total.pairs,
    pairsReplayed: total.pairsReplayed,
    userTasks: total.userTasks,
    extraAttacks: total.extraAttacks,
    suites: bySuite,
  };
  return `SUMMARY ${JSON.stringify(summary)}`;
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}

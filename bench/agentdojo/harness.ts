// The whole replay: every suite without rules and with the rule set, measured.
import { loadSuites } from './data.js';
import { EXTRA_ATTACKS } from './extra-attacks.js';
import { measureSuite, type SuiteMetrics, totalOf } from './metrics.js';
import { replaySuite } from './replay.js';

export interface BenchResult {
  readonly bySuite: Readonly<Record<string, SuiteMetrics>>;
  readonly total: SuiteMetrics;
}

export async function runAgentDojo(dataDir: string): Promise<BenchResult> {
  const bySuite: Record<string, SuiteMetrics> = {};
  for (const suite of loadSuites(dataDir)) {
    const noRules = await replaySuite({ dataDir, suite, withRules: false });
    const withRules = await replaySuite({ dataDir, suite, withRules: true, extraAttacks: EXTRA_ATTACKS });
    bySuite[suite.name] = measureSuite(noRules, withRules);
  }
  return { bySuite, total: totalOf(Object.values(bySuite)) };
}

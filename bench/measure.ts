/** Operations per second of each contender, measured in interleaved rounds so drift hits all alike. */
export async function compareRates(
  contenders: Record<string, () => unknown>,
  options: { batch: number; rounds: number; warmupBatches?: number },
): Promise<Record<string, number>> {
  const names = Object.keys(contenders);
  const samples: Record<string, number[]> = Object.fromEntries(names.map((name) => [name, []]));
  const runBatch = async (fn: () => unknown) => {
    const started = performance.now();
    for (let i = 0; i < options.batch; i += 1) await fn();
    return performance.now() - started;
  };
  for (const name of names) {
    for (let i = 0; i < (options.warmupBatches ?? 3); i += 1)
      await runBatch(contenders[name] as () => unknown);
  }
  for (let round = 0; round < options.rounds; round += 1) {
    for (const name of round % 2 === 0 ? names : [...names].reverse()) {
      const ms = await runBatch(contenders[name] as () => unknown);
      samples[name]?.push((options.batch / ms) * 1000);
    }
  }
  return Object.fromEntries(names.map((name) => [name, median(samples[name] ?? [])]));
}

/**
 * Interleaved rounds like `compareRates`, but each time ratio is taken within one round before the
 * median (steadier than a ratio of two medians when the disk's speed drifts).
 */
export async function comparePaired<Name extends string>(
  contenders: Record<Name, () => unknown>,
  options: { batch: number; rounds: number },
): Promise<{ rates: Record<Name, number>; timeRatios(over: Name, under: Name): number[] }> {
  const names = Object.keys(contenders) as Name[];
  const runBatch = async (fn: () => unknown) => {
    const started = performance.now();
    for (let i = 0; i < options.batch; i += 1) await fn();
    return (options.batch / (performance.now() - started)) * 1000;
  };
  for (const name of names) await runBatch(contenders[name]);
  const samples: Record<Name, number>[] = [];
  for (let round = 0; round < options.rounds; round += 1) {
    const sample = {} as Record<Name, number>;
    for (const name of round % 2 === 0 ? names : [...names].reverse())
      sample[name] = await runBatch(contenders[name]);
    samples.push(sample);
  }
  const rates = Object.fromEntries(names.map((n) => [n, median(samples.map((s) => s[n]))]));
  return {
    rates: rates as Record<Name, number>,
    timeRatios: (over, under) => samples.map((s) => s[under] / s[over]),
  };
}

/** Milliseconds one call of `fn` takes, the median of `repeat` calls. */
export async function timeOnce(fn: () => unknown, repeat = 5): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < repeat; i += 1) {
    const started = performance.now();
    await fn();
    times.push(performance.now() - started);
  }
  return median(times);
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? 0)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

export const formatRate = (perSecond: number) =>
  perSecond >= 1e6 ? `${(perSecond / 1e6).toFixed(2)}M/s` : `${(perSecond / 1e3).toFixed(1)}k/s`;

/** A verdict next to a target, so a reader sees at once what was met. */
export const verdict = (met: boolean) => (met ? 'met' : 'NOT met');

/** Prints a Markdown table whose columns are padded to their widest cell. */
export function printTable(headers: string[], rows: string[][]): void {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join(' | ')} |`;
  console.log(line(headers));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const row of rows) console.log(line(row));
}

// A channel that hangs or fails never slows a confirm: memory round trips (invoke → confirm → deliver)
// with no channels, against the same with a hanging and a failing channel, interleaved in one run.
// Measured twice, because a channel holds at most 1,000 unanswered notices and past that drops new ones
// at once: below that cap (fresh registries, each used for fewer round trips than the cap allows) and at
// it (a registry whose hanging channel is full before timing starts).
// Run alone: `npx tsx bench/notify.ts` (add `--quick`); the main bench calls `benchNotify()`.
import { fileURLToPath } from 'node:url';
import { createMemoryStore, type Notifier, type ToolRegistry } from 'graded-tools';
import { compareRates } from './measure.js';
import { registryOn, roundTrip } from './send-tool.js';

/** Never answers: each notice it gets stays pending for good. */
const hanging: Notifier = { channel: 'hanging', send: () => new Promise(() => {}) };
/** Fails at once, as a channel whose receiver is down would after its retries. */
const failing: Notifier = { channel: 'failing', send: async () => ({ ok: false, error: 'receiver down' }) };

/** A channel keeps this many unanswered notices at most (`MAX_WAITING_PER_CHANNEL`). */
const CAP = 1_000;
/** Each round trip tells each channel twice (asked, then decided): a fresh registry stays below the cap this long. */
const BELOW_CAP_TRIPS = CAP / 2 - 100;

const quietRegistry = () => registryOn(createMemoryStore({ maxRecords: 1_000_000 }));
const toldRegistry = () =>
  registryOn(createMemoryStore({ maxRecords: 1_000_000 }), 'bench.send', {
    notify: { to: [hanging, failing] },
  });

/**
 * Round trips over registries made (and each called once, compiling its schema) before timing starts;
 * each serves `every` trips and then the next takes over, so none ever reaches the cap.
 */
async function rotating(
  make: () => ToolRegistry,
  every: number,
  trips: number,
): Promise<() => Promise<void>> {
  const pool: ToolRegistry[] = [];
  for (let i = 0; i <= trips / every; i += 1) {
    const registry = make();
    await roundTrip(registry, 0);
    pool.push(registry);
  }
  let done = 0;
  return () => {
    done += 1;
    return roundTrip(pool[Math.floor(done / every)] as ToolRegistry, done);
  };
}

export async function benchNotify(options: { readonly quick?: boolean } = {}): Promise<string[]> {
  const quick = options.quick === true;
  const settings = { batch: quick ? 200 : 400, rounds: quick ? 5 : 15 };
  const trips = (settings.rounds + 3) * settings.batch; // compareRates warms up with 3 batches
  const below = await compareRates(
    {
      quiet: await rotating(quietRegistry, BELOW_CAP_TRIPS, trips),
      told: await rotating(toldRegistry, BELOW_CAP_TRIPS, trips),
    },
    settings,
  );
  const quiet = quietRegistry();
  const full = toldRegistry();
  for (let i = 0; i < CAP; i += 1) await roundTrip(full, i);
  let n = CAP;
  const atCap = await compareRates(
    { quiet: () => roundTrip(quiet, n++), told: () => roundTrip(full, n++) },
    settings,
  );
  const row = (label: string, rates: Record<string, number>) => {
    const ratio = (rates.told ?? 0) / (rates.quiet ?? 1);
    return `  ${label.padEnd(44)} ${((rates.quiet ?? 0) / 1_000).toFixed(1)}k/s → ${((rates.told ?? 0) / 1_000).toFixed(1)}k/s: ${ratio.toFixed(2)}× (target >= 0.9×: ${ratio >= 0.9 ? 'met' : 'NOT met'})`;
  };
  return [
    '\n## Telling approvers never slows a confirm\n',
    'Memory-store round trips (invoke → confirm → deliver), each telling every channel twice; baseline:',
    'the same round trips with no channels (median rates, no channels → a hanging and a failing channel).',
    row(`below the ${CAP.toLocaleString('en')}-notice cap (fresh registries)`, below),
    row('at the cap (the hanging channel full)', atCap),
  ];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const line of await benchNotify({ quick: process.argv.includes('--quick') })) console.log(line);
  process.exit(0);
}

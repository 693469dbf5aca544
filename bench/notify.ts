// A channel that hangs or fails never slows a confirm: memory round trips (invoke → confirm → deliver)
// with no channels, against the same with a hanging and a failing channel, interleaved in one run.
// Run alone: `npx tsx bench/notify.ts` (add `--quick`); the main bench calls `benchNotify()`.
import { fileURLToPath } from 'node:url';
import { createMemoryStore, type Notifier } from 'graded-tools';
import { compareRates } from './measure.js';
import { registryOn, roundTrip } from './send-tool.js';

/** Never answers: each notice it gets stays pending for good. */
const hanging: Notifier = { channel: 'hanging', send: () => new Promise(() => {}) };
/** Fails at once, as a channel whose receiver is down would after its retries. */
const failing: Notifier = { channel: 'failing', send: async () => ({ ok: false, error: 'receiver down' }) };

export async function benchNotify(options: { readonly quick?: boolean } = {}): Promise<string[]> {
  const quick = options.quick === true;
  const quiet = registryOn(createMemoryStore({ maxRecords: 1_000_000 }));
  const told = registryOn(createMemoryStore({ maxRecords: 1_000_000 }), 'bench.send', {
    notify: { to: [hanging, failing] },
  });
  let n = 0;
  const rates = await compareRates(
    {
      'no channels': () => roundTrip(quiet, n++),
      'a hanging and a failing channel': () => roundTrip(told, n++),
    },
    { batch: quick ? 200 : 500, rounds: quick ? 5 : 15 },
  );
  const base = rates['no channels'] ?? 0;
  const withChannels = rates['a hanging and a failing channel'] ?? 0;
  const ratio = withChannels / base;
  return [
    '\n## Telling approvers never slows a confirm\n',
    'Memory-store round trips (invoke → confirm → deliver); each creates a notice and a decided notice.',
    `  no channels                          ${(base / 1_000).toFixed(1)}k/s`,
    `  a hanging and a failing channel      ${(withChannels / 1_000).toFixed(1)}k/s`,
    `  with / without: ${ratio.toFixed(2)}× (target >= 0.9×: ${ratio >= 0.9 ? 'met' : 'NOT met'})`,
  ];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const line of await benchNotify({ quick: process.argv.includes('--quick') })) console.log(line);
  process.exit(0);
}

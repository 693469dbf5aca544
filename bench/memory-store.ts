// The memory store against a `Map`-based store of the same state machine, behind the same registry:
// what the memory store's snapshots and bookkeeping cost on a round trip, below and at its cap.
// Run alone: `npx tsx --tsconfig bench/tsconfig.json bench/memory-store.ts`.
import { fileURLToPath } from 'node:url';
import { type Confirmation, type ConfirmRequired, createMemoryStore, type ToolRegistry } from 'graded-tools';
import type { ConfirmationStore, FinishChange, StoreChange, TransitionOutcome } from 'graded-tools/store';
import { compareRates, timeOnce } from './measure.js';
import { registryOn, roundTrip } from './send-tool.js';

const FINISHED = new Set(['delivered', 'rejected', 'expired']);

/** A frozen deep copy, built key by key. */
function frozen<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return Object.freeze(value.map(frozen)) as T;
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const child = frozen((value as Record<string, unknown>)[key]);
    if (key === '__proto__')
      Object.defineProperty(copy, key, { value: child, enumerable: true, writable: true });
    else copy[key] = child;
  }
  return Object.freeze(copy) as T;
}

/**
 * The comparator: the same transitions on a plain `Map`, each version a new plain object, eviction
 * in batches of a tenth of the cap by walking the map, no index of any kind; or, with
 * `evict: 'oldest'`, the oldest record alone, found at the head of a queue of ids in creation order
 * (walking a `Map` from its start passes every entry deleted since its last rehash). With `snapshots`, it
 * keeps the store contract the way the memory store does (frozen parts copied in, a fresh shell
 * handed out); without, it copies nothing and hands out what it holds (cheaper, but any caller could
 * change the store through a record).
 */
export function createMapStore(
  maxRecords: number,
  snapshots: boolean,
  evict: 'tenth' | 'oldest' = 'tenth',
): ConfirmationStore {
  const records = new Map<string, Confirmation>();
  let order: string[] = [];
  let head = 0;
  const out = snapshots ? (c: Confirmation): Confirmation => ({ ...c }) : (c: Confirmation) => c;
  const iso = (ms: number) => new Date(ms).toISOString();
  const next = (c: Confirmation, status: Confirmation['status'], at: StoreChange, extra = {}) => {
    const entry = { at: iso(at.now), status, ...(at.by === undefined ? {} : { by: at.by }) };
    const history = [...c.history, snapshots ? Object.freeze(entry) : entry];
    const version = {
      ...c,
      ...extra,
      status,
      updatedAt: entry.at,
      history: snapshots ? Object.freeze(history) : history,
    };
    records.set(c.id, version);
    return { ok: true as const, confirmation: out(version) };
  };
  const move = (id: string, from: string[], to: Confirmation['status'], at: StoreChange, claim = false) => {
    const c = records.get(id);
    if (c === undefined) return { ok: false as const, reason: 'not-found' as const };
    if (!from.includes(c.status))
      return { ok: false as const, reason: 'wrong-status' as const, confirmation: out(c) };
    if (claim && Date.parse(c.expiresAt) <= at.now)
      return { ok: false as const, reason: 'expired' as const, confirmation: out(c) };
    return next(c, to, at, claim || to === 'delivering' ? { attempt: c.attempt + 1 } : {});
  };
  return {
    async create(c) {
      if (records.size >= maxRecords) {
        if (evict === 'oldest') {
          const oldest = order[head];
          if (oldest !== undefined && FINISHED.has(records.get(oldest)?.status ?? '')) {
            records.delete(oldest);
            head++;
            if (head > 1_024 && head > order.length / 2) {
              order = order.slice(head);
              head = 0;
            }
          }
        }
        let drop = evict === 'oldest' ? 0 : Math.max(1, Math.floor(maxRecords / 10));
        for (const [id, r] of records) {
          if (drop === 0) break;
          if (FINISHED.has(r.status)) {
            records.delete(id);
            drop--;
          }
        }
        if (records.size >= maxRecords) throw new Error('full');
      }
      if (evict === 'oldest') order.push(c.id);
      if (!snapshots) {
        records.set(c.id, c);
        return;
      }
      const shell: Record<string, unknown> = { ...c };
      for (const key of Object.keys(shell)) shell[key] = frozen(shell[key]);
      records.set(c.id, shell as unknown as Confirmation);
    },
    async get(id) {
      const c = records.get(id);
      return c && out(c);
    },
    async list() {
      return { confirmations: [...records.values()].slice(-100).reverse() };
    },
    async claim(id, at) {
      return move(id, ['pending'], 'delivering', at, true);
    },
    async reclaim(id, at) {
      return move(id, ['unknown', 'failed'], 'delivering', at);
    },
    async finish(id: string, at: FinishChange): Promise<TransitionOutcome> {
      const c = records.get(id);
      if (c === undefined) return { ok: false, reason: 'not-found' };
      if (c.status !== 'delivering' || c.attempt !== at.attempt)
        return { ok: false, reason: 'wrong-status', confirmation: out(c) };
      const parsed = at.resultJson === undefined ? undefined : (JSON.parse(at.resultJson) as unknown);
      const result = parsed === undefined ? {} : { result: snapshots ? frozen(parsed) : parsed };
      return next(c, at.status, at, result);
    },
    async reject(id, at) {
      return move(id, ['pending'], 'rejected', at);
    },
    async markDelivered(id, at) {
      return move(id, ['unknown', 'failed'], 'delivered', at);
    },
    async expire() {
      return [];
    },
    async recoverStale() {
      return [];
    },
    async prune() {
      return 0;
    },
  };
}

/**
 * Fills a store to `count` records: the older `pendingShare` of them pending (never due), the rest
 * delivered.
 */
async function fill(
  registry: ToolRegistry,
  store: ConfirmationStore,
  count: number,
  pendingShare = 0.5,
): Promise<void> {
  for (let n = 0; n < count; n++) {
    const asked = (await registry.invoke('bench.send', { n }, { actor: 'agent' })) as ConfirmRequired;
    if (n >= count * pendingShare) await registry.confirm(asked.confirmationId, { approvedBy: 'lead' });
  }
  if ((await store.get('x'.repeat(22))) !== undefined) throw new Error('unexpected');
}

/** Prints the memory store's round trips against the `Map` store's, and its sweeps at 100,000 records. */
export async function benchMemoryStore(options: { readonly quick?: boolean } = {}): Promise<string[]> {
  const quick = options.quick === true;
  const lines: string[] = [];
  const say = (line: string) => {
    lines.push(line);
    console.log(line);
  };
  const CAP = 100_000;
  // [label, maxRecords, records filled, share of them pending, how the `Map` stores make room]
  const cases: [string, number, number, number, 'tenth' | 'oldest'][] = [
    ['below its cap (fresh store)', 1_000_000, 0, 0.5, 'tenth'],
    [`at its cap (${CAP.toLocaleString('en-US')}; the oldest half pending)`, CAP, CAP, 0.5, 'tenth'],
    [
      `at its default cap (${CAP.toLocaleString('en-US')}), full of delivered records; \`Map\` stores drop their oldest`,
      CAP,
      CAP,
      0,
      'oldest',
    ],
  ];
  say('\n## The memory store against a `Map` store of the same state machine\n');
  say(
    '| invoke → confirm → delivered | memory store | `Map` store, same snapshots | ratio (target ≥ 0.9×) | `Map` store, no snapshots | ratio |',
  );
  say('|---|---|---|---|---|---|');
  for (const [label, maxRecords, prefill, pendingShare, evict] of cases) {
    const memoryStore = createMemoryStore(maxRecords === CAP ? {} : { maxRecords });
    const mapStore = createMapStore(maxRecords, true, evict);
    const bareStore = createMapStore(maxRecords, false, evict);
    const memory = registryOn(memoryStore);
    const map = registryOn(mapStore);
    const bare = registryOn(bareStore);
    await fill(memory, memoryStore, prefill, pendingShare);
    await fill(map, mapStore, prefill, pendingShare);
    await fill(bare, bareStore, prefill, pendingShare);
    let n = 0;
    const rates = await compareRates(
      {
        memory: () => roundTrip(memory, n++),
        map: () => roundTrip(map, n++),
        bare: () => roundTrip(bare, n++),
      },
      { batch: quick ? 1_000 : 2_000, rounds: quick ? 7 : 15 },
    );
    const rate = (name: string) => `${Math.round(rates[name] ?? 0).toLocaleString('en-US')}/s`;
    const ratio = (rates.memory ?? 0) / (rates.map ?? 1);
    const bareRatio = (rates.memory ?? 0) / (rates.bare ?? 1);
    say(
      `| ${label} | ${rate('memory')} | ${rate('map')} | ${ratio.toFixed(2)}× ${ratio >= 0.9 ? 'met' : 'NOT met'} | ${rate('bare')} | ${bareRatio.toFixed(2)}× |`,
    );
    if (prefill > 0 && pendingShare > 0) {
      const registry = registryOn(memoryStore);
      const listMs = await timeOnce(() => registry.confirmations.list({ status: 'pending', limit: 100 }));
      const allMs = await timeOnce(() => registry.confirmations.list({ limit: 100 }));
      const expireMs = await timeOnce(() => registry.expireDue());
      // A page 200 pages into the pending ones, reached by following cursors.
      let cursor: string | undefined;
      for (let page = 0; page < 200; page++) {
        const listed = await registry.confirmations.list({
          status: 'pending',
          limit: 100,
          ...(cursor === undefined ? {} : { cursor }),
        });
        cursor = listed.ok ? listed.nextCursor : undefined;
        if (cursor === undefined) throw new Error(`the pending list ended after ${page + 1} pages`);
      }
      const deep = cursor as string;
      const deepMs = await timeOnce(() =>
        registry.confirmations.list({ status: 'pending', limit: 100, cursor: deep }),
      );
      say(
        `\nAt ${CAP.toLocaleString('en-US')} records: \`list({ status: 'pending', limit: 100 })\` ${listMs.toFixed(2)} ms (page 201 by cursor: ${deepMs.toFixed(2)} ms), \`list({ limit: 100 })\` ${allMs.toFixed(2)} ms, \`expireDue()\` with nothing due ${expireMs.toFixed(2)} ms.`,
      );
    }
  }
  return lines;
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  await benchMemoryStore({ quick: process.argv.includes('--quick') });
}

import { createMemoryStore, payloadDigest } from 'graded-tools';
import { createMapStore } from './memory-store.js';

const T0 = Date.now();
const mk = (i: number) => {
  const payload = { n: i, to: 'ana@example.com', text: 'Your refund.' };
  return {
    id: `id-${i}-xxxxxxxxxxxxxxxx`,
    tool: 'bench.send',
    input: { n: i },
    payload,
    digest: payloadDigest('bench.send', payload),
    actor: 'agent',
    createdAt: new Date(T0).toISOString(),
    expiresAt: new Date(T0 + 3600e3).toISOString(),
    updatedAt: new Date(T0).toISOString(),
    status: 'pending' as const,
    attempt: 0,
    history: [{ at: new Date(T0).toISOString(), status: 'pending' as const, by: 'agent' }],
  };
};
async function run(store: any, from: number, n: number) {
  const t = performance.now();
  for (let i = from; i < from + n; i++) {
    const c = mk(i);
    await store.create(c);
    await store.get(c.id);
    const cl = await store.claim(c.id, { now: T0 + 1, by: 'lead' });
    await store.finish(c.id, {
      now: T0 + 2,
      attempt: 1,
      status: 'delivered',
      resultJson: '{"accepted":"x"}',
    });
  }
  return (n / (performance.now() - t)) * 1000;
}
const m = createMemoryStore({ maxRecords: 1e6 });
const p = createMapStore(1e6);
let k = 0;
for (let r = 0; r < 0; r++) {
  const a = await run(m, k, 20000);
  k += 20000;
  const b = await run(p, k, 20000);
  k += 20000;
  console.log(Math.round(a), Math.round(b), (a / b).toFixed(2));
}

import { compareRates } from './measure.js';

const one = async (store: any) => {
  const c = mk(k++);
  await store.create(c);
  await store.get(c.id);
  await store.claim(c.id, { now: T0 + 1, by: 'lead' });
  await store.finish(c.id, { now: T0 + 2, attempt: 1, status: 'delivered', resultJson: '{"accepted":"x"}' });
};
const mm = createMemoryStore({ maxRecords: 1e6 });
const pp = createMapStore(1e6);
const r = await compareRates({ memory: () => one(mm), map: () => one(pp) }, { batch: 2000, rounds: 25 });
console.log(r, (r.memory! / r.map!).toFixed(2));

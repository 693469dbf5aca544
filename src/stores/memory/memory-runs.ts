import type { RunRecord, RunStore } from '../store.js';

/** One run in memory: its record, each value key with the tools that returned it, and its texts. */
interface KeptRun {
  record: RunRecord;
  readonly read: Map<string, Set<string>>;
  /** How many (value, tool) entries `read` holds. */
  entries: number;
  readonly texts: { readonly tool: string; readonly text: string }[];
  textChars: number;
}

const frozenRecord = (run: RunRecord): RunRecord =>
  Object.freeze({
    ...run,
    trusted: Object.freeze(
      Object.fromEntries(
        Object.entries(run.trusted).map(([list, values]) => [list, Object.freeze([...values])]),
      ),
    ),
  });

/**
 * Agent runs in process memory (`RunStore`): the memory store's, and the registry's own when its store
 * keeps no runs. Each method changes the map in one synchronous step, so a read's values are remembered
 * whole or not at all; past `maxRuns` the oldest run is forgotten.
 */
export function memoryRuns(): RunStore {
  /** In start order, so the first entry is the oldest. */
  const runs = new Map<string, KeptRun>();
  const live = (id: string, now: number): KeptRun | undefined => {
    const kept = runs.get(id);
    if (kept === undefined || kept.record.expiresAt > now) return kept;
    runs.delete(id);
    return undefined;
  };

  return {
    async beginRun(run, { maxRuns }) {
      if (runs.has(run.id)) throw new Error(`a run with the id ${run.id} exists`);
      // Runs share one ttl most often, so expired ones sit at the front: stop at the first live one.
      for (const [id, kept] of runs) {
        if (kept.record.expiresAt > run.startedAt) break;
        runs.delete(id);
      }
      while (runs.size >= maxRuns) {
        const oldest = runs.keys().next().value;
        if (oldest === undefined) break;
        runs.delete(oldest);
      }
      runs.set(run.id, { record: frozenRecord(run), read: new Map(), entries: 0, texts: [], textChars: 0 });
    },

    async readRun(id, { now, keys, texts }) {
      const kept = live(id, now);
      if (kept === undefined) return undefined;
      const read: { key: string; tool: string }[] = [];
      for (const key of new Set(keys)) for (const tool of kept.read.get(key) ?? []) read.push({ key, tool });
      return { run: kept.record, read, texts: texts ? [...kept.texts] : [] };
    },

    async rememberRead(id, { tool, keys, texts }, { now, maxValues, maxTextChars }) {
      const kept = live(id, now);
      if (kept === undefined || kept.record.full) return false;
      const text = texts.join('\n');
      const fresh = [...new Set(keys)].filter((key) => kept.read.get(key)?.has(tool) !== true);
      if (kept.entries + fresh.length > maxValues || kept.textChars + text.length > maxTextChars) {
        kept.record = Object.freeze({ ...kept.record, full: true });
        return false;
      }
      for (const key of fresh) {
        const tools = kept.read.get(key);
        if (tools === undefined) kept.read.set(key, new Set([tool]));
        else tools.add(tool);
      }
      kept.entries += fresh.length;
      if (text !== '') {
        kept.texts.push({ tool, text });
        kept.textChars += text.length;
      }
      return true;
    },

    async endRun(id) {
      return runs.delete(id);
    },

    async pruneRuns({ now }) {
      let pruned = 0;
      for (const [id, kept] of runs)
        if (kept.record.expiresAt <= now) {
          runs.delete(id);
          pruned++;
        }
      return pruned;
    },
  };
}

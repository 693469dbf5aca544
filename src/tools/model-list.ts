import type { GateSnapshot } from '../policy/call-context.js';
import type { FunctionSchema } from './function-schema.js';

const MAX_CACHED_CONTEXTS = 256;

/**
 * The model's list per gate context, the least recently used dropped first. The key is the scope
 * and the sorted granted flags as JSON, so no scope or flag name can pose as another context's.
 */
export class ModelListCache {
  readonly #lists = new Map<string, readonly FunctionSchema[]>();

  /** The list cached for `gates`, or the one `build` makes (then cached). */
  get(gates: GateSnapshot, build: () => FunctionSchema[]): readonly FunctionSchema[] {
    const key = JSON.stringify([gates.scope ?? null, gates.granted]);
    const cached = this.#lists.get(key);
    if (cached !== undefined) {
      this.#lists.delete(key);
      this.#lists.set(key, cached);
      return cached;
    }
    const list = Object.freeze(build());
    if (this.#lists.size >= MAX_CACHED_CONTEXTS) {
      const oldest = this.#lists.keys().next();
      if (oldest.done !== true) this.#lists.delete(oldest.value);
    }
    this.#lists.set(key, list);
    return list;
  }

  /** Forgets every list: a tool was registered or removed. */
  clear(): void {
    this.#lists.clear();
  }
}

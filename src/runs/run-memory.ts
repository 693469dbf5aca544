import type { Origin } from '../origins/origin.js';
import type { RunSnapshot } from '../stores/store.js';
import { holdsPhrase, isPhrase, keyOf, keysIn, plain } from './identifiers.js';

/**
 * One agent run as a call judges it, built from what the store's `readRun` returned: the person's
 * request, the app's trusted values by list, and of what the agent read only the keys the call asked
 * about. A value it holds nothing of is found nowhere: the cautious answer.
 */
export class RunMemory {
  readonly id: string;
  readonly expiresAt: number;
  /** True once the run stopped remembering what the agent reads (its bounds were reached). */
  readonly isFull: boolean;
  readonly #request = new Set<string>();
  readonly #requestText: string;
  /** Each trusted value's key (the whole value, never its words), with the lists that hold it. */
  readonly #trusted = new Map<string, string[]>();
  /** Each asked key read, with the tools that returned it, in reading order. */
  readonly #read = new Map<string, string[]>();
  readonly #texts: RunSnapshot['texts'];

  constructor(snapshot: RunSnapshot) {
    const { run } = snapshot;
    this.id = run.id;
    this.expiresAt = run.expiresAt;
    this.isFull = run.full;
    this.#requestText = plain(run.request);
    keysIn(run.request, (key) => this.#request.add(key));
    for (const [list, values] of Object.entries(run.trusted))
      for (const value of values) {
        const key = keyOf(value);
        if (key === undefined) continue;
        const lists = this.#trusted.get(key);
        if (lists === undefined) this.#trusted.set(key, [list]);
        else if (!lists.includes(list)) lists.push(list);
      }
    for (const { key, tool } of snapshot.read) {
      const tools = this.#read.get(key);
      if (tools === undefined) this.#read.set(key, [tool]);
      else if (!tools.includes(tool)) tools.push(tool);
    }
    this.#texts = snapshot.texts;
  }

  /** Where `key` was found: the request, the trusted lists, the tools that returned it, or nowhere. */
  originsOf(key: string): Origin[] {
    const origins: Origin[] = [];
    const phrase = isPhrase(key);
    if (this.#request.has(key) || (phrase && holdsPhrase(this.#requestText, key)))
      origins.push({ from: 'request' });
    for (const list of this.#trusted.get(key) ?? []) origins.push({ from: 'trusted', list });
    if (origins.length > 0) return origins;
    const tools = [...(this.#read.get(key) ?? [])];
    if (phrase)
      for (const { tool, text } of this.#texts)
        if (!tools.includes(tool) && holdsPhrase(text, key)) tools.push(tool);
    for (const tool of tools) origins.push({ from: 'tool', tool });
    return origins.length > 0 ? origins : [{ from: 'none' }];
  }

  /** True when the person's request or the app's trusted values hold `key`. */
  isVouched(key: string): boolean {
    return (
      this.#request.has(key) ||
      this.#trusted.has(key) ||
      (isPhrase(key) && holdsPhrase(this.#requestText, key))
    );
  }
}

import type { Origin } from '../confirmation.js';
import { holdsPhrase, isPhrase, keysIn, plain } from './identifiers.js';

/** How much one run remembers of what the agent read. */
export interface RunBounds {
  /** Distinct values remembered from tool results; past it, later reads are not remembered. */
  readonly maxValues: number;
  /** Characters of result text kept to find several-word values (names, titles) in. */
  readonly maxTextChars: number;
}

/** The most nodes of one tool result walked for values; the rest of a huge result is not read. */
const MAX_NODES = 50_000;
const MAX_DEPTH = 32;

/**
 * One agent run: the person's request and the app's trusted values, given at its start, and every
 * value the agent read since, with the tools it read them from. Bounded (`RunBounds`), never grown
 * past its caps; a value it could not remember is answered as found nowhere, the cautious answer.
 */
export class RunMemory {
  readonly id: string;
  readonly expiresAt: number;
  readonly #bounds: RunBounds;
  readonly #request = new Set<string>();
  readonly #requestText: string;
  readonly #trusted = new Set<string>();
  /** Each value read, with the tools that returned it, in reading order. */
  readonly #read = new Map<string, string[]>();
  /** Result texts of several words, for values of several words. */
  readonly #texts: { readonly tool: string; readonly text: string }[] = [];
  #textChars = 0;
  #full = false;

  constructor(
    start: { id: string; expiresAt: number; request: string; trusted: readonly string[] },
    bounds: RunBounds,
  ) {
    this.id = start.id;
    this.expiresAt = start.expiresAt;
    this.#bounds = bounds;
    this.#requestText = plain(start.request);
    keysIn(start.request, (key) => this.#request.add(key));
    for (const value of start.trusted) keysIn(value, (key) => this.#trusted.add(key));
  }

  /** True once the run stopped remembering what the agent reads (its caps are reached). */
  get isFull(): boolean {
    return this.#full;
  }

  /** Remembers the values in what `tool` returned. Never throws; a hostile object is read as far as it lets. */
  remember(tool: string, result: unknown): void {
    if (this.#full) return;
    let nodes = 0;
    const seen = new WeakSet<object>();
    const visit = (value: unknown, depth: number): void => {
      if (this.#full || nodes++ > MAX_NODES) return;
      if (typeof value === 'string' || typeof value === 'number' || typeof value === 'bigint') {
        this.#rememberText(tool, String(value));
        return;
      }
      if (typeof value !== 'object' || value === null || depth > MAX_DEPTH) return;
      if (seen.has(value) || ArrayBuffer.isView(value) || value instanceof ArrayBuffer) return;
      seen.add(value);
      try {
        const items = Array.isArray(value) ? value : Object.values(value);
        for (const item of items) visit(item, depth + 1);
      } catch {
        // A getter that throws hides the rest of that object; what was read stays remembered.
      }
    };
    visit(result, 0);
  }

  /** Where `key` was found: the request, the trusted values, the tools that returned it, or nowhere. */
  originsOf(key: string): Origin[] {
    const origins: Origin[] = [];
    const phrase = isPhrase(key);
    if (this.#request.has(key) || (phrase && holdsPhrase(this.#requestText, key)))
      origins.push({ from: 'request' });
    if (this.#trusted.has(key)) origins.push({ from: 'trusted' });
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

  #rememberText(tool: string, text: string): void {
    keysIn(text, (key) => {
      const tools = this.#read.get(key);
      if (tools === undefined) {
        if (this.#read.size >= this.#bounds.maxValues) {
          this.#full = true;
          return;
        }
        this.#read.set(key, [tool]);
      } else if (!tools.includes(tool)) tools.push(tool);
    });
    if (!text.includes(' ')) return;
    const plainText = plain(text);
    if (this.#textChars + plainText.length > this.#bounds.maxTextChars) {
      this.#full = true;
      return;
    }
    this.#textChars += plainText.length;
    this.#texts.push({ tool, text: plainText });
  }
}

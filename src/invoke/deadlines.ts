/**
 * Something that must give up at `deadline` (a `performance.now()` time) unless unwatched first. The
 * list links live on the entry itself, so watching a call allocates nothing.
 */
export abstract class Expiring {
  abstract readonly deadline: number;
  abstract expire(): void;
  /** @internal */ previous: Expiring | undefined = undefined;
  /** @internal */ next: Expiring | undefined = undefined;
  /** @internal */ watched = false;
}

/**
 * One timer for every pending call instead of a timer per call: arming and clearing a Node timer for
 * each invoke cost more than a fast tool's whole run. Pending calls sit in an intrusive list; the timer
 * is armed for the earliest deadline, re-armed when it fires, and unref'd once nothing is pending so it
 * never keeps an idle process alive.
 */
export class Deadlines {
  readonly #keepAlive: boolean;
  readonly #ordered: boolean;
  #head: Expiring | undefined;
  #tail: Expiring | undefined;
  #size = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #armedFor = Number.POSITIVE_INFINITY;
  #referenced = false;
  #turnEndScheduled = false;
  #clock: number | undefined;

  /**
   * `keepAlive: false`: the timer never keeps the process alive, even while something is pending
   * (what is watched may be given up on silently at exit). `ordered: true`: entries are watched in
   * deadline order (one fixed duration for all), so a firing timer stops at the first one not due.
   */
  constructor(options: { readonly keepAlive?: boolean; readonly ordered?: boolean } = {}) {
    this.#keepAlive = options.keepAlive !== false;
    this.#ordered = options.ordered === true;
  }

  /**
   * The time, read once per turn of the event loop: reading the clock cost as much as the rest of a
   * fast call's guard. Node's own timers measure from libuv's loop time, which is cached per turn in
   * the same way, so a deadline is never less precise than a plain `setTimeout` would be.
   */
  now(): number {
    if (this.#clock === undefined) {
      this.#clock = performance.now();
      this.#scheduleTurnEnd();
    }
    return this.#clock;
  }

  watch(entry: Expiring): void {
    if (entry.watched) return;
    entry.watched = true;
    entry.previous = this.#tail;
    entry.next = undefined;
    if (this.#tail === undefined) this.#head = entry;
    else this.#tail.next = entry;
    this.#tail = entry;
    this.#size += 1;
    if (entry.deadline < this.#armedFor) {
      this.#arm(entry.deadline);
    } else if (!this.#referenced && this.#keepAlive) {
      this.#timer?.ref();
      this.#referenced = true;
    }
  }

  unwatch(entry: Expiring): void {
    if (!entry.watched) return;
    entry.watched = false;
    if (entry.previous === undefined) this.#head = entry.next;
    else entry.previous.next = entry.next;
    if (entry.next === undefined) this.#tail = entry.previous;
    else entry.next.previous = entry.previous;
    entry.previous = undefined;
    entry.next = undefined;
    this.#size -= 1;
    // Unref'ing on every call that empties the list costs a native call each time; a burst of calls
    // shares one release at the end of the turn instead.
    if (this.#size === 0 && this.#referenced) this.#scheduleTurnEnd();
  }

  /** How many calls are waiting. */
  get size(): number {
    return this.#size;
  }

  #scheduleTurnEnd(): void {
    if (this.#turnEndScheduled) return;
    this.#turnEndScheduled = true;
    setImmediate(this.#onTurnEnd);
  }

  readonly #onTurnEnd = (): void => {
    this.#turnEndScheduled = false;
    this.#clock = undefined;
    if (this.#size === 0 && this.#referenced) {
      this.#timer?.unref();
      this.#referenced = false;
    }
  };

  #arm(deadline: number): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#armedFor = deadline;
    this.#timer = setTimeout(this.#fire, Math.max(0, Math.ceil(deadline - performance.now())));
    this.#referenced = this.#keepAlive;
    if (!this.#keepAlive) this.#timer.unref();
  }

  readonly #fire = (): void => {
    this.#timer = undefined;
    this.#armedFor = Number.POSITIVE_INFINITY;
    this.#referenced = false;
    const now = performance.now();
    let next = Number.POSITIVE_INFINITY;
    let entry = this.#head;
    while (entry !== undefined) {
      const following = entry.next;
      if (entry.deadline <= now) {
        this.unwatch(entry);
        entry.expire();
      } else if (entry.deadline < next) {
        next = entry.deadline;
        if (this.#ordered) break;
      }
      entry = following;
    }
    if (next !== Number.POSITIVE_INFINITY) this.#arm(next);
  };
}

import type { GuardedCall } from '../invoke/run-guarded.js';
import type { Approval } from '../tool.js';

/** Returns the object it is given, so that a subclass stamps its private field onto that object. */
class OntoGiven {
  constructor(target: object) {
    // biome-ignore lint/correctness/noConstructorReturn: the point of this class (see ApprovalSignal).
    return target;
  }
}

/**
 * Gives a plain approval object its `signal`: an own, enumerable getter (as an object literal's
 * `get signal()` would be) that asks the delivery's guard, which makes its AbortController only if
 * `deliver` reads it. The guard is kept in a private field stamped onto the approval itself, so every
 * approval shares one getter.
 *
 * Why not the literal: a getter in an object literal makes a new function and puts the object in
 * dictionary mode on every confirm — several times slower to build — and V8 keeps such objects, with
 * the guard, payload and closures they reach, past the next minor GC: a loop of them alone promotes
 * megabytes per scavenge. This object is the same to its reader: same own keys in the same order,
 * same property attributes, same prototype (`Object.prototype`).
 */
class ApprovalSignal extends OntoGiven {
  readonly #guard: GuardedCall;

  private constructor(approval: object, guard: GuardedCall) {
    super(approval);
    this.#guard = guard;
    Object.defineProperty(approval, 'signal', ApprovalSignal.#signal);
  }

  static readonly #signal: PropertyDescriptor = Object.getOwnPropertyDescriptor(
    {
      get signal(): AbortSignal {
        // Also when read through an object made from the approval (`Object.create(approval)`), as
        // the closure this replaces was.
        let holder: object | null = this;
        while (holder !== null && !(#guard in holder))
          holder = Object.getPrototypeOf(holder) as object | null;
        if (holder === null) throw new TypeError('`signal` can only be read from an approval');
        return (holder as ApprovalSignal).#guard.signal;
      },
    },
    'signal',
  ) as PropertyDescriptor;

  /** What `deliver` is handed for a claimed confirmation. */
  static for(confirmationId: string, approvedBy: string, guard: GuardedCall): Approval {
    const approval = { confirmationId, approvedBy };
    new ApprovalSignal(approval, guard);
    return approval as unknown as Approval;
  }
}

/** What `deliver` is handed: the confirmation id, who approved, and the delivery's signal. */
export const approvalFor: (confirmationId: string, approvedBy: string, guard: GuardedCall) => Approval =
  ApprovalSignal.for;

/**
 * Freezes `value` and everything reachable from it, in place. Iterative, so a deep value cannot
 * overflow the stack; already-frozen objects are taken as frozen all the way down.
 */
export function deepFreeze<T>(value: T): T {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const next = stack.pop();
    if (typeof next !== 'object' || next === null || Object.isFrozen(next)) continue;
    Object.freeze(next);
    for (const child of Object.values(next)) stack.push(child);
  }
  return value;
}

const stores = new WeakSet<object>();

/**
 * Marks `store` as one that lives in this process's memory only (the memory store): nothing outside the
 * process changes it, so a wait on it hears every decision from the registry's own notices and never
 * needs to read it again on a timer.
 */
export function inProcess<Store extends object>(store: Store): Store {
  stores.add(store);
  return store;
}

/** Whether `store` was made by `inProcess`. */
export function isInProcess(store: object): boolean {
  return stores.has(store);
}

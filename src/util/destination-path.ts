/**
 * A destination as a tool names it: a dotted path that looks through lists on the way (`to.address`,
 * `to[].address`, the `[]` optional), or a JSON Pointer (RFC 6901) that names one place exactly
 * (`/to/0/address`). Either way the value found there is judged whole; a list found there is judged
 * item by item.
 */
export interface DestinationPath {
  /** `dotted` looks through every list on the way; `pointer` steps into a list only by index. */
  readonly kind: 'dotted' | 'pointer';
  readonly parts: readonly string[];
}

const DOTTED = /^[A-Za-z_$][\w$-]*(?:\[\])?(?:\.[A-Za-z_$][\w$-]*(?:\[\])?){0,7}$/u;
const MAX_POINTER_PARTS = 8;
const MAX_PATH_CHARS = 200;
const INDEX = /^(?:0|[1-9]\d{0,8})$/u;

/** `path` read as a destination path, or `undefined` when it is neither form. */
export function readDestinationPath(path: string): DestinationPath | undefined {
  if (path.length > MAX_PATH_CHARS) return undefined;
  if (DOTTED.test(path))
    return { kind: 'dotted', parts: path.split('.').map((part) => part.replace(/\[\]$/u, '')) };
  if (!path.startsWith('/')) return undefined;
  const parts = path.slice(1).split('/');
  if (parts.length > MAX_POINTER_PARTS || parts.some((part) => /~(?![01])/u.test(part))) return undefined;
  return { kind: 'pointer', parts: parts.map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~')) };
}

/** True when a pointer's part can step into a list (`0`, `12`). */
export function isIndex(part: string): boolean {
  return INDEX.test(part);
}

/**
 * Every value at `path` in `input`, in input order: a list at the end is read item by item (nested
 * lists too); a value missing on the way, or `null`/`undefined` standing alone, is no value. Anything
 * else found there — an object, a boolean, a `null` inside a list — is returned as it is, to be judged.
 */
export function valuesAt(input: unknown, path: DestinationPath): unknown[] {
  let level: unknown[] = [input];
  for (const [at, part] of path.parts.entries()) {
    const last = at === path.parts.length - 1;
    const next: unknown[] = [];
    for (const item of level) {
      const found = step(item, part, path.kind);
      if (found === undefined) continue;
      // Lists on the way are looked through; a list at the end is read below, its `null`s kept.
      if (Array.isArray(found) && path.kind === 'dotted' && !last) next.push(...found);
      else next.push(found);
    }
    level = next;
  }
  const values: unknown[] = [];
  for (const value of level) {
    if (value === null || value === undefined) continue;
    if (Array.isArray(value)) values.push(...flatItems(value));
    else values.push(value);
  }
  return values;
}

/** Lists inside lists looked through on the way; a transformed input may nest (or hold) itself deeper. */
const MAX_LIST_DEPTH = 64;

function step(item: unknown, part: string, kind: DestinationPath['kind'], depth = 0): unknown {
  if (typeof item !== 'object' || item === null) return undefined;
  if (Array.isArray(item)) {
    if (kind === 'pointer') return isIndex(part) ? item[Number(part)] : undefined;
    if (depth > MAX_LIST_DEPTH) return undefined;
    // A dotted path looks through lists (already spread above); a list inside a list is looked through too.
    const found = item.flatMap((inner) => {
      const value = step(inner, part, kind, depth + 1);
      return value === undefined ? [] : [value];
    });
    return found.length === 0 ? undefined : found.flat();
  }
  return Object.hasOwn(item, part) ? (item as Record<string, unknown>)[part] : undefined;
}

/** A list's items, nested lists read through; `undefined` and `null` inside a list are kept (judged `none`). */
function flatItems(list: readonly unknown[]): unknown[] {
  const items: unknown[] = [];
  // A transformed input (a Standard Schema's output) may hold a list inside itself: read it once.
  const seen = new WeakSet<readonly unknown[]>([list]);
  const stack: { list: readonly unknown[]; at: number }[] = [{ list, at: 0 }];
  while (stack.length > 0) {
    const top = stack[stack.length - 1] as { list: readonly unknown[]; at: number };
    if (top.at >= top.list.length) {
      stack.pop();
      continue;
    }
    const item = top.list[top.at++];
    if (Array.isArray(item)) {
      if (!seen.has(item)) stack.push({ list: item, at: 0 });
      seen.add(item);
    } else items.push(item === undefined ? null : item);
  }
  return items;
}

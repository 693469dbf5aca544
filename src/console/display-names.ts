import type { Confirmation } from '../confirmation.js';

/** The longest name shown; a longer one is cut (a name is a label, not a message). */
const MAX_NAME = 120;

/**
 * The app's names for the people on a card — who asked, everyone in its history and everyone who
 * approved it (a rule asking for several people) — from the
 * console's `displayName` option, else the signed-in person's own `name` for their id. An id without
 * a name is left out (the page shows the id); a `displayName` that throws or answers anything but a
 * non-empty string names nobody.
 */
export function displayNames(
  confirmation: Pick<Confirmation, 'actor' | 'history' | 'approvals'>,
  displayName: ((personId: string) => string | undefined) | undefined,
  viewer: { readonly id: string; readonly name?: string | undefined } | undefined,
): Record<string, string> {
  const ids = new Set<string>();
  if (confirmation.actor !== undefined) ids.add(confirmation.actor);
  for (const entry of confirmation.history) if (entry.by !== undefined) ids.add(entry.by);
  for (const approval of confirmation.approvals ?? []) ids.add(approval.by);
  const names: Record<string, string> = Object.create(null);
  for (const id of ids) {
    const name = nameOf(displayName, id) ?? (viewer?.id === id ? usable(viewer.name) : undefined);
    if (name !== undefined && name !== id) names[id] = name;
  }
  return names;
}

function nameOf(displayName: ((personId: string) => string | undefined) | undefined, id: string) {
  if (displayName === undefined) return undefined;
  try {
    return usable(displayName(id));
  } catch {
    return undefined;
  }
}

function usable(name: unknown): string | undefined {
  if (typeof name !== 'string') return undefined;
  const trimmed = name.trim();
  return trimmed === '' ? undefined : trimmed.slice(0, MAX_NAME);
}

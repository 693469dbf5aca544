// The names this channel puts on its cards and reads back: the `Action.Execute` verbs, and the data
// every action carries (the confirmation and the digest of the payload the card showed).

/** The verbs of the card's `Action.Execute` buttons. */
export const VERBS = {
  approve: 'graded_tools.approve',
  reject: 'graded_tools.reject',
  /** Undo: take back a send held in its undo window (`holdMs`). */
  cancel: 'graded_tools.cancel',
  /** Teams asks for the card as it stands now (the card's `refresh`), deciding nothing. */
  refresh: 'graded_tools.refresh',
} as const;

export type Verb = keyof typeof VERBS;

/** What an action carries: which confirmation, and the digest of the payload the card showed. */
export interface ActionData {
  readonly id: string;
  readonly digest: string;
}

const ID = /^[A-Za-z0-9_-]{8,128}$/;
const DIGEST = /^[0-9a-f]{64}$/;

/** The `data` of an action (kept small: Teams sends it back as is). */
export function actionData(data: ActionData): { graded_tools: ActionData } {
  return { graded_tools: { id: data.id, digest: data.digest } };
}

/** An action's verb read back, or `undefined` when it is not one of ours. */
export function readVerb(value: unknown): Verb | undefined {
  for (const [verb, name] of Object.entries(VERBS)) if (value === name) return verb as Verb;
  return undefined;
}

/** An action's `data` read back, or `undefined` when it is not one of ours. */
export function readActionData(value: unknown): ActionData | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const inner = (value as Record<string, unknown>).graded_tools;
  if (typeof inner !== 'object' || inner === null) return undefined;
  const { id, digest } = inner as Record<string, unknown>;
  return typeof id === 'string' && ID.test(id) && typeof digest === 'string' && DIGEST.test(digest)
    ? { id, digest }
    : undefined;
}

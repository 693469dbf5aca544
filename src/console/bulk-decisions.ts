import { isRecord } from '../util/is-record.js';
import type { PersonRequest } from './console-request.js';
import { askFromBody } from './decision-bodies.js';
import { decide } from './decisions.js';
import type { BulkOutcome } from './wire.js';

/** The most confirmations one bulk request decides. */
export const MAX_BULK_ITEMS = 100;

/**
 * Confirms (each with its own digest) or rejects (with the one `reason`) several confirmations, one
 * after the other: each is looked up, authorized and decided on its own, exactly as if asked alone,
 * and gets its own result. `undefined` for a body the console does not accept (no `items` array, more
 * than 100 items, an item without an id, a confirm item without its digest).
 */
export async function decideMany(
  ctx: PersonRequest,
  kind: 'confirm' | 'reject',
  body: Readonly<Record<string, unknown>>,
): Promise<BulkOutcome | undefined> {
  const { items } = body;
  if (!Array.isArray(items) || items.length > MAX_BULK_ITEMS) return undefined;
  const asks = [];
  for (const item of items) {
    if (!isRecord(item) || typeof item.id !== 'string') return undefined;
    const ask = askFromBody(kind, kind === 'confirm' ? { digest: item.digest } : { reason: body.reason });
    if (ask === undefined) return undefined;
    asks.push({ id: item.id, ask });
  }
  const results: BulkOutcome['results'][number][] = [];
  for (const { id, ask } of asks) {
    const { decision } = await decide(ctx, id, ask);
    results.push({ id, ...decision });
  }
  return { ok: true, results };
}

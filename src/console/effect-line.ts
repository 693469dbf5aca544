import type { ConfirmationToolView } from '../confirm/types.js';
import { isRecord } from '../util/is-record.js';

/** The longest effect line shown (a sentence, not a message). */
const MAX_EFFECT = 300;

/**
 * What confirming does, in the tool's own words (`effect`), with `{field}` filled from the payload,
 * or `undefined` when the tool declares none.
 */
export function effectOf(tool: ConfirmationToolView | undefined, payload: unknown): string | undefined {
  const template = (tool as { readonly effect?: unknown } | undefined)?.effect;
  if (typeof template !== 'string' || template.trim() === '') return undefined;
  return fillEffect(template, payload).slice(0, MAX_EFFECT);
}

// Interim copy until the lead's describeEffect (src/confirm/effect-text.ts) lands; then this calls it.
function fillEffect(template: string, payload: unknown): string {
  return template.replace(/\{([A-Za-z0-9_.-]+)\}/g, (whole, field: string) => {
    const value = isRecord(payload) && Object.hasOwn(payload, field) ? payload[field] : undefined;
    return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
      ? String(value)
      : whole;
  });
}

import { describeEffect } from '../confirm/reading/effect-text.js';
import type { ConfirmationToolView } from '../confirm/types.js';

/**
 * What confirming does, in the tool's own words (`effect`), with `{field}` filled from the payload by
 * the library's one `describeEffect`, or `undefined` when the tool declares none.
 */
export function effectOf(tool: ConfirmationToolView | undefined, payload: unknown): string | undefined {
  const template = tool?.effect;
  if (template === undefined || template.trim() === '') return undefined;
  return describeEffect(template, payload);
}

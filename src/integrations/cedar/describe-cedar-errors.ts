import type { DetailedError } from '@cedar-policy/cedar-wasm/nodejs';

/** Cedar's errors as one line for a person: each message, with where in the text and what was expected. */
export function describeCedarErrors(errors: readonly DetailedError[]): string {
  return errors
    .map((error) => {
      const at = error.sourceLocations?.[0];
      const where = at === undefined ? '' : ` (at character ${at.start}${at.label ? `: ${at.label}` : ''})`;
      return `${error.message}${where}${error.help ? `; ${error.help}` : ''}`;
    })
    .join('; ');
}

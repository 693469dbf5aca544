/** A `{field}` placeholder: a top-level payload field name of letters, digits, `_`, `-` or `.`. */
const PLACEHOLDER = /\{([A-Za-z0-9_.-]{1,100})\}/g;
const MAX_VALUE_LENGTH = 200;

/**
 * A send tool's `effect` with each `{field}` replaced by that top-level payload field, as text: a
 * string, number or boolean (cut to 200 characters, on one line). A placeholder naming no such field,
 * or a field that is an object, stays as written, so the sentence never claims what the payload
 * does not say.
 *
 * @example
 * ```ts
 * import { describeEffect } from 'graded-tools';
 * describeEffect('Emails the customer at {to}', { to: 'ana@example.com', text: 'Hi' });
 * // 'Emails the customer at ana@example.com'
 * ```
 */
export function describeEffect(template: string, payload: unknown): string {
  if (typeof template !== 'string') return '';
  const fields = typeof payload === 'object' && payload !== null && !Array.isArray(payload) ? payload : {};
  return template.replace(PLACEHOLDER, (whole, name: string) => {
    if (!Object.hasOwn(fields, name)) return whole;
    const value = (fields as Record<string, unknown>)[name];
    if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') return whole;
    const text = String(value).replace(/[\p{Cc}\p{Cf}]+/gu, ' ');
    return text.length > MAX_VALUE_LENGTH ? `${text.slice(0, MAX_VALUE_LENGTH - 1)}…` : text;
  });
}

import type { Locale } from '../messages/index.js';
import { isRecord } from '../util/is-record.js';

/**
 * The labels of a payload's top-level fields, from its schema: a property's `"x-title"` for the
 * locale (`"x-title": { "zh-CN": "收件人" }`), else its `title`; a field with neither is left out
 * (the page shows its key).
 */
export function payloadLabels(schema: unknown, locale: Locale): Record<string, string> {
  const labels: Record<string, string> = Object.create(null);
  if (!isRecord(schema) || !isRecord(schema.properties)) return labels;
  for (const [field, property] of Object.entries(schema.properties)) {
    if (!isRecord(property)) continue;
    const translated = isRecord(property['x-title']) ? property['x-title'][locale] : undefined;
    const label = typeof translated === 'string' && translated.trim() !== '' ? translated : property.title;
    if (typeof label === 'string' && label.trim() !== '') labels[field] = label.trim();
  }
  return labels;
}

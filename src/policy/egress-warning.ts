import type { ToolInfo } from '../tool-info.js';
import { isRecord } from '../util/is-record.js';

const URL_FORMATS: ReadonlySet<string> = new Set(['uri', 'url', 'iri', 'uri-reference', 'iri-reference']);

/**
 * A read tool whose input takes a URL (`format: 'uri'`) but that does not declare `egress`: the model
 * chooses where it reaches, so a page an attacker planted can have it fetch the attacker's address.
 * The warning `register` and `graded-tools access --check` give, or `undefined`.
 */
export function egressWarning(tool: ToolInfo): string | undefined {
  if (tool.sideEffect !== 'read' || tool.egress !== undefined) return undefined;
  const fields = urlFields(tool.inputSchema);
  if (fields.length === 0) return undefined;
  const named = fields.map((f) => `\`${f}\``).join(', ');
  return `Tool "${tool.name}" is a read whose input ${named} takes a URL, but it does not declare \`egress\`: the model could make it reach any address it read. Declare \`egress: true\` with \`destinations: [${fields.map((f) => `'${f}'`).join(', ')}]\` (or \`egress: { allow: [...] }\`).`;
}

function urlFields(schema: unknown): string[] {
  const properties = isRecord(schema) && isRecord(schema.properties) ? schema.properties : {};
  const fields: string[] = [];
  for (const [name, property] of Object.entries(properties)) if (takesUrl(property)) fields.push(name);
  return fields;
}

function takesUrl(property: unknown): boolean {
  if (!isRecord(property)) return false;
  if (typeof property.format === 'string' && URL_FORMATS.has(property.format)) return true;
  for (const key of ['anyOf', 'oneOf'] as const) {
    const options = property[key];
    if (Array.isArray(options) && options.some(takesUrl)) return true;
  }
  return isRecord(property.items) && takesUrl(property.items);
}

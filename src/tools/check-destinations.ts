import { ToolDefinitionError } from '../errors/tool-definition-error.js';
import type { JsonSchema } from '../json-schema.js';
import { keyOf } from '../runs/identifiers.js';
import type { SideEffect } from '../tool.js';
import { isRecord } from '../util/is-record.js';

/** A tool's `destinations` and `egress`, read once at register. */
export interface DestinationSpec {
  /** Input fields (names or dotted paths) whose values say where the call goes. */
  readonly destinations: readonly string[] | undefined;
  /** A read that reaches outside: the model's exit runs it only for vouched destinations. */
  readonly egress: { readonly allow: readonly string[]; readonly allowed: ReadonlySet<string> } | undefined;
}

const MAX_DESTINATIONS = 20;
const MAX_ALLOWED = 1_000;
const PATH = /^[A-Za-z_$][\w$-]*(?:\.[A-Za-z_$][\w$-]*){0,7}$/u;

function fail(name: string, message: string): never {
  throw new ToolDefinitionError('INVALID_OPTION', name, `Tool "${name}": ${message}`);
}

/**
 * Checks `destinations` (input fields the JSON Schema describes, each path followed through
 * `properties` and list `items`) and `egress` (`true`, or `{ allow: [...] }` of values the tool may
 * always reach — hosts, addresses — on a `read` tool that names its destinations).
 */
export function checkDestinations(
  raw: { readonly destinations: unknown; readonly egress: unknown },
  grade: SideEffect,
  input: JsonSchema,
  isStandard: boolean,
  name: string,
): DestinationSpec {
  const destinations = readDestinations(raw.destinations, input, isStandard, name);
  if (raw.egress === undefined || raw.egress === false) return { destinations, egress: undefined };
  if (grade !== 'read')
    fail(
      name,
      '`egress` marks a read that reaches outside; a write or send already waits for a person. Remove it.',
    );
  if (destinations === undefined)
    fail(name, '`egress` needs `destinations`: the input fields that say where the read goes (e.g. `url`).');
  if (raw.egress === true) return { destinations, egress: { allow: [], allowed: new Set() } };
  const allow = isRecord(raw.egress) ? raw.egress.allow : undefined;
  if (!Array.isArray(allow) || allow.length > MAX_ALLOWED || allow.some((v) => typeof v !== 'string'))
    fail(name, `\`egress\` must be \`true\` or \`{ allow: [...] }\` with at most ${MAX_ALLOWED} strings.`);
  const allowed = new Set<string>();
  for (const value of allow as string[]) {
    const key = keyOf(value);
    if (key !== undefined) allowed.add(key);
  }
  return { destinations, egress: { allow: Object.freeze([...(allow as string[])]), allowed } };
}

function readDestinations(
  raw: unknown,
  input: JsonSchema,
  isStandard: boolean,
  name: string,
): readonly string[] | undefined {
  if (raw === undefined) return undefined;
  if (!Array.isArray(raw) || raw.length === 0 || raw.length > MAX_DESTINATIONS)
    fail(name, `\`destinations\` must be a non-empty list of at most ${MAX_DESTINATIONS} input field names.`);
  const paths: string[] = [];
  for (const path of raw) {
    if (typeof path !== 'string' || !PATH.test(path))
      fail(name, '`destinations` holds input field names or dotted paths, like "recipient" or "to.email".');
    if (paths.includes(path)) fail(name, `\`destinations\` names "${path}" twice.`);
    // A Standard Schema's JSON form may be partial: its fields are trusted as written.
    if (!isStandard && !describes(input, path))
      fail(name, `\`destinations\` names "${path}", which inputSchema's properties do not describe.`);
    paths.push(path);
  }
  return Object.freeze(paths);
}

/** True when `path` leads through the schema's `properties` (and through `items` of lists). */
function describes(schema: JsonSchema, path: string): boolean {
  let level: unknown = schema;
  for (const part of path.split('.')) {
    while (isRecord(level) && isRecord(level.items)) level = level.items;
    const properties = isRecord(level) && isRecord(level.properties) ? level.properties : undefined;
    if (properties === undefined || !Object.hasOwn(properties, part)) return false;
    level = properties[part];
  }
  return true;
}

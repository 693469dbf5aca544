import { ToolDefinitionError } from './errors/tool-definition-error.js';
import { type JsonSchema, SIDE_EFFECTS, type ToolDefinition } from './tool.js';
import type { ToolInfo } from './tool-info.js';
import { findUnsupportedPattern } from './validation/patterns.js';
import { describeAsJsonSchema, isStandardSchema } from './validation/standard-schema.js';
import { isValidToolName, MAX_WIRE_NAME_LENGTH, toWireName } from './wire-name.js';

const NAME_RULES =
  'A tool name is `<domain>.<capability>`: dot-separated segments that start with a letter and hold letters, digits, `-` and single `_` between other characters (e.g. `kb.search`, `crm.contact_notes.list`).';

function fail(code: ToolDefinitionError['code'], name: string, message: string): never {
  throw new ToolDefinitionError(code, name, `Tool "${name}": ${message}`);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function checkInputSchema(definition: ToolDefinition, name: string): JsonSchema {
  const schema = definition.inputSchema as unknown;
  if (!isRecord(schema))
    return fail('INVALID_SCHEMA', name, 'inputSchema must be a JSON Schema object or a Standard Schema.');
  let json: JsonSchema;
  if (isStandardSchema(schema)) {
    const described = describeAsJsonSchema(schema);
    if (typeof described === 'string')
      return fail('INVALID_SCHEMA', name, `inputSchema cannot be used: ${described}.`);
    json = described;
  } else {
    json = schema;
  }
  if (json.type !== 'object') {
    return fail(
      'INVALID_SCHEMA',
      name,
      `the root of inputSchema must be \`{ type: 'object', … }\` (got type ${JSON.stringify(json.type)}): every provider passes tool arguments as one object. Wrap other values in a property.`,
    );
  }
  // A Standard Schema runs its own patterns; a JSON Schema's run in Ajv, on the linear engine.
  const patternProblem = isStandardSchema(schema) ? undefined : findUnsupportedPattern(json);
  if (patternProblem !== undefined) fail('UNSUPPORTED_PATTERN', name, `inputSchema: ${patternProblem}`);
  return json;
}

function checkFunctions(definition: ToolDefinition, name: string): void {
  const { run, prepare, deliver } = definition as { run?: unknown; prepare?: unknown; deliver?: unknown };
  if (definition.sideEffect === 'send') {
    if (run !== undefined) {
      fail(
        'SEND_WITH_RUN',
        name,
        'a send tool has no `run`: give `prepare` (builds the payload a person sees) and `deliver` (sends it once they confirm).',
      );
    }
    if (typeof prepare !== 'function' || typeof deliver !== 'function') {
      fail(
        'SEND_WITHOUT_DELIVERY',
        name,
        'a send tool needs both `prepare(input, ctx)` and `deliver(payload, approval)` functions.',
      );
    }
    return;
  }
  if (prepare !== undefined || deliver !== undefined) {
    fail(
      'INVALID_GRADE',
      name,
      `only send tools have \`prepare\`/\`deliver\`; this one is graded '${definition.sideEffect}'. Did you mean sideEffect: 'send'?`,
    );
  }
  if (typeof run !== 'function')
    fail('MISSING_RUN', name, `a ${definition.sideEffect} tool needs a \`run(input, ctx)\` function.`);
}

function checkOptions(definition: ToolDefinition, name: string): void {
  if (typeof definition.description !== 'string' || definition.description.trim() === '') {
    fail(
      'INVALID_OPTION',
      name,
      'give a `description` for the model: what the tool does and when to use it.',
    );
  }
  const { scopes, featureFlag, timeoutMs, title } = definition;
  if (
    scopes !== undefined &&
    (!Array.isArray(scopes) || scopes.length === 0 || !scopes.every((s) => typeof s === 'string' && s !== ''))
  ) {
    fail(
      'INVALID_OPTION',
      name,
      '`scopes` must be a non-empty array of non-empty strings; omit it to make the tool available anywhere.',
    );
  }
  if (featureFlag !== undefined && (typeof featureFlag !== 'string' || featureFlag === '')) {
    fail(
      'INVALID_OPTION',
      name,
      '`featureFlag` must be a non-empty string; omit it for a tool that is not gated.',
    );
  }
  if (
    timeoutMs !== undefined &&
    !(typeof timeoutMs === 'number' && timeoutMs > 0 && timeoutMs <= 2_147_483_647)
  ) {
    fail(
      'INVALID_OPTION',
      name,
      '`timeoutMs` must be a positive number of milliseconds (at most 2147483647).',
    );
  }
  if (title !== undefined && typeof title !== 'string')
    fail('INVALID_OPTION', name, '`title` must be a string.');
}

/**
 * Checks a definition before it enters a registry and returns what the registry tells about it.
 * Throws `ToolDefinitionError` with a message that says how to fix the mistake.
 */
export function checkDefinition(definition: ToolDefinition): ToolInfo {
  if (!isRecord(definition))
    throw new ToolDefinitionError(
      'INVALID_OPTION',
      String(definition),
      'A tool definition must be an object.',
    );
  const name = definition.name;
  if (typeof name !== 'string' || !isValidToolName(name)) {
    return fail('INVALID_NAME', String(name), NAME_RULES);
  }
  const wireName = toWireName(name);
  if (wireName.length > MAX_WIRE_NAME_LENGTH) {
    fail(
      'WIRE_NAME_TOO_LONG',
      name,
      `its wire name "${wireName}" has ${wireName.length} characters; providers accept at most ${MAX_WIRE_NAME_LENGTH}. Shorten the name.`,
    );
  }
  const domain = name.slice(0, name.indexOf('.'));
  if (definition.domain !== undefined && definition.domain !== domain) {
    fail(
      'DOMAIN_MISMATCH',
      name,
      `\`domain\` is "${definition.domain}" but the name's first segment is "${domain}"; omit \`domain\` or make them agree.`,
    );
  }
  if (!SIDE_EFFECTS.includes(definition.sideEffect)) {
    fail('INVALID_GRADE', name, "`sideEffect` must be 'read', 'write' or 'send'.");
  }
  checkFunctions(definition, name);
  checkOptions(definition, name);
  const inputSchema = checkInputSchema(definition, name);
  return {
    name,
    wireName,
    domain,
    title: definition.title ?? name,
    description: definition.description,
    sideEffect: definition.sideEffect,
    scopes: definition.scopes === undefined ? undefined : Object.freeze([...definition.scopes]),
    featureFlag: definition.featureFlag,
    timeoutMs: definition.timeoutMs,
    openWorld: definition.openWorld === true,
    inputSchema,
  };
}

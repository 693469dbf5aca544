import type { StandardSchemaV1 } from '@standard-schema/spec';
import { ToolDefinitionError } from '../errors/tool-definition-error.js';
import type { JsonSchema } from '../json-schema.js';
import type { EscalationStep } from '../notice.js';
import { compileRules, RuleProblem } from '../policy/rules/compile-rules.js';
import { describeRule } from '../policy/rules/rule-info.js';
import { isNameSegment, isValidToolName, MAX_WIRE_NAME_LENGTH, toWireName } from '../policy/wire-name.js';
import { SIDE_EFFECTS, type SideEffect, type ToolDefinition } from '../tool.js';
import type { ToolInfo } from '../tool-info.js';
import { deepFreeze } from '../util/deep-freeze.js';
import { describeThrown } from '../util/describe-thrown.js';
import { isRecord } from '../util/is-record.js';
import { findUnsupportedPattern } from '../validation/patterns.js';
import { describeAsJsonSchema, isStandardSchema } from '../validation/standard-schema.js';
import { checkDestinations } from './check-destinations.js';
import { readEscalation } from './escalation-steps.js';
import type { PayloadSpec, RegisteredTool, ToolFunction } from './registered-tool.js';

const NAME_RULES =
  'A tool name is one segment or several joined by dots: each starts with a letter and holds letters, digits, `-` and single `_` between other characters (e.g. `send_email`, `list-files`, or the advised `<domain>.<capability>`: `kb.search`, `crm.contact_notes.list`).';

/** The longest timeout Node's timers take; a larger one fires at once, every millisecond. */
export const MAX_TIMEOUT_MS = 2_147_483_647;

function fail(code: ToolDefinitionError['code'], name: string, message: string): never {
  throw new ToolDefinitionError(code, name, `Tool "${name}": ${message}`);
}

/** The longest undo window a send tool may hold a confirmed send for: a day. */
export const MAX_HOLD_MS = 24 * 60 * 60 * 1000;

/** A send tool's undo window: a positive number of milliseconds, at most a day. */
function checkHoldMs(holdMs: unknown, grade: SideEffect, name: string): number | undefined {
  if (holdMs === undefined) return undefined;
  if (grade !== 'send')
    return fail(
      'INVALID_OPTION',
      name,
      // A write runs at once when a person or a plan invokes it: a window only its confirmed calls
      // waited out would promise an undo the other paths never give.
      '`holdMs` (an undo window before delivery) is only for `send` tools; a write runs when confirmed.',
    );
  if (typeof holdMs !== 'number' || !(holdMs > 0) || holdMs > MAX_HOLD_MS)
    return fail(
      'INVALID_OPTION',
      name,
      `\`holdMs\` must be a positive number of milliseconds, at most ${MAX_HOLD_MS} (a day).`,
    );
  return holdMs;
}

/** True for a usable timeout: a positive number of milliseconds Node's timers can wait for. */
export function isTimeoutMs(value: unknown): value is number {
  return typeof value === 'number' && value > 0 && value <= MAX_TIMEOUT_MS;
}

/** Every field of a definition, read once: getters on the app's object run here and never again. */
interface Fields {
  readonly name: unknown;
  readonly domain: unknown;
  readonly title: unknown;
  readonly description: unknown;
  readonly sideEffect: unknown;
  readonly inputSchema: unknown;
  readonly scopes: unknown;
  readonly featureFlag: unknown;
  readonly timeoutMs: unknown;
  readonly openWorld: unknown;
  readonly run: unknown;
  readonly prepare: unknown;
  readonly deliver: unknown;
  readonly payloadSchema: unknown;
  readonly editable: unknown;
  readonly effect: unknown;
  readonly holdMs: unknown;
  readonly escalate: unknown;
  readonly rules: unknown;
  readonly passkey: unknown;
  readonly destinations: unknown;
  readonly egress: unknown;
}

function readFields(definition: ToolDefinition): Fields {
  const d = definition as unknown as Record<string, unknown>;
  return {
    name: d.name,
    domain: d.domain,
    title: d.title,
    description: d.description,
    sideEffect: d.sideEffect,
    inputSchema: d.inputSchema,
    scopes: d.scopes,
    featureFlag: d.featureFlag,
    timeoutMs: d.timeoutMs,
    openWorld: d.openWorld,
    run: d.run,
    prepare: d.prepare,
    deliver: d.deliver,
    payloadSchema: d.payloadSchema,
    editable: d.editable,
    effect: d.effect,
    holdMs: d.holdMs,
    escalate: d.escalate,
    rules: d.rules,
    passkey: d.passkey,
    destinations: d.destinations,
    egress: d.egress,
  };
}

function checkName(fields: Fields): { name: string; wireName: string; domain: string } {
  const name = fields.name;
  if (typeof name !== 'string' || !isValidToolName(name))
    return fail('INVALID_NAME', typeof name === 'string' ? name : `(a ${typeof name})`, NAME_RULES);
  const wireName = toWireName(name);
  if (wireName.length > MAX_WIRE_NAME_LENGTH) {
    fail(
      'WIRE_NAME_TOO_LONG',
      name,
      `its wire name "${wireName}" has ${wireName.length} characters; providers accept at most ${MAX_WIRE_NAME_LENGTH}. Shorten the name.`,
    );
  }
  const dot = name.indexOf('.');
  if (dot === -1) return { name, wireName, domain: flatDomain(fields.domain, name) };
  const domain = name.slice(0, dot);
  if (fields.domain !== undefined && fields.domain !== domain) {
    fail(
      'DOMAIN_MISMATCH',
      name,
      `\`domain\` is "${String(fields.domain)}" but the name's first segment is "${domain}"; omit \`domain\` or make them agree.`,
    );
  }
  return { name, wireName, domain };
}

/**
 * A flat name's domain: the `domain` given (one name segment, like `email`), or the name itself — so
 * `list({ domain })` and the access report file `send_email` under `send_email` until the app says more.
 */
function flatDomain(domain: unknown, name: string): string {
  if (domain === undefined) return name;
  if (typeof domain !== 'string' || !isNameSegment(domain))
    return fail(
      'INVALID_OPTION',
      name,
      '`domain` must be one name segment: a letter first, then letters, digits, `-` and single `_` (e.g. `email`).',
    );
  return domain;
}

function checkGrade(fields: Fields, name: string): SideEffect {
  const grade = fields.sideEffect;
  if (!SIDE_EFFECTS.includes(grade as SideEffect)) {
    fail('INVALID_GRADE', name, "`sideEffect` must be 'read', 'write' or 'send'.");
  }
  return grade as SideEffect;
}

function checkFunctions(fields: Fields, grade: SideEffect, name: string): void {
  const { run, prepare, deliver } = fields;
  if (grade === 'send') {
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
      `only send tools have \`prepare\`/\`deliver\`; this one is graded '${grade}'. Did you mean sideEffect: 'send'?`,
    );
  }
  if (typeof run !== 'function')
    fail('MISSING_RUN', name, `a ${grade} tool needs a \`run(input, ctx)\` function.`);
}

function checkScopes(scopes: unknown, name: string): readonly string[] | undefined {
  if (scopes === undefined) return undefined;
  const copy = Array.isArray(scopes) ? [...(scopes as unknown[])] : undefined;
  if (copy === undefined || copy.length === 0 || !copy.every((s) => typeof s === 'string' && s !== '')) {
    return fail(
      'INVALID_OPTION',
      name,
      '`scopes` must be a non-empty array of non-empty strings; omit it to make the tool available anywhere.',
    );
  }
  return Object.freeze(copy as string[]);
}

function checkOptions(fields: Fields, name: string): void {
  if (typeof fields.description !== 'string' || fields.description.trim() === '') {
    fail(
      'INVALID_OPTION',
      name,
      'give a `description` for the model: what the tool does and when to use it.',
    );
  }
  const { featureFlag, timeoutMs, title } = fields;
  if (featureFlag !== undefined && (typeof featureFlag !== 'string' || featureFlag === '')) {
    fail(
      'INVALID_OPTION',
      name,
      '`featureFlag` must be a non-empty string; omit it for a tool that is not gated.',
    );
  }
  if (timeoutMs !== undefined && !isTimeoutMs(timeoutMs)) {
    fail(
      'INVALID_OPTION',
      name,
      `\`timeoutMs\` must be a positive number of milliseconds (at most ${MAX_TIMEOUT_MS}).`,
    );
  }
  if (title !== undefined && typeof title !== 'string')
    fail('INVALID_OPTION', name, '`title` must be a string.');
}

/**
 * The input schema as registered: a deep-frozen JSON copy the app can no longer change, and for a
 * Standard Schema its `validate` pinned as it was at register.
 */
function checkInputSchema(
  schema: unknown,
  name: string,
  label = 'inputSchema',
): { json: JsonSchema; text: string; standard: StandardSchemaV1 | undefined } {
  if (!isRecord(schema))
    return fail('INVALID_SCHEMA', name, `${label} must be a JSON Schema object or a Standard Schema.`);
  let described: unknown = schema;
  let standard: StandardSchemaV1 | undefined;
  if (isStandardSchema(schema as JsonSchema)) {
    const props = (schema as unknown as StandardSchemaV1)['~standard'];
    const validate = props.validate;
    if (typeof validate !== 'function')
      return fail('INVALID_SCHEMA', name, `${label} is a Standard Schema without a \`validate\` function.`);
    standard = Object.freeze({
      '~standard': Object.freeze({
        version: 1 as const,
        vendor: String(props.vendor),
        validate: (value: unknown) => validate.call(props, value),
      }),
    });
    described = describeAsJsonSchema(schema as never);
    if (typeof described === 'string')
      return fail('INVALID_SCHEMA', name, `${label} cannot be used: ${described}.`);
  }
  let json: JsonSchema;
  let text: string;
  try {
    text = JSON.stringify(described);
    json = deepFreeze(JSON.parse(text) as JsonSchema);
  } catch (error) {
    return fail('INVALID_SCHEMA', name, `${label} must be plain JSON (${describeThrown(error)}).`);
  }
  if (json.type !== 'object') {
    fail(
      'INVALID_SCHEMA',
      name,
      `the root of ${label} must be \`{ type: 'object', … }\` (got type ${JSON.stringify(json.type)}): every provider passes tool arguments as one object. Wrap other values in a property.`,
    );
  }
  // A Standard Schema runs its own patterns; a JSON Schema's run in Ajv, on the linear engine.
  const patternProblem = standard === undefined ? findUnsupportedPattern(json) : undefined;
  if (patternProblem !== undefined) fail('UNSUPPORTED_PATTERN', name, `${label}: ${patternProblem}`);
  return { json, text, standard };
}

const MAX_EDITABLE = 100;
const MAX_EFFECT_LENGTH = 300;

/**
 * A send's or a write's `effect`: one line for approvers, with `{field}` placeholders for payload
 * fields (a write's payload is its input).
 */
function checkEffect(effect: unknown, grade: SideEffect, name: string): string | undefined {
  if (effect === undefined) return undefined;
  if (grade === 'read')
    return fail(
      'INVALID_OPTION',
      name,
      '`effect` tells approvers what confirming a send or a write does; a read tool is never confirmed.',
    );
  if (
    typeof effect !== 'string' ||
    effect.trim() === '' ||
    effect.length > MAX_EFFECT_LENGTH ||
    /[\p{Cc}\p{Cf}]/u.test(effect)
  )
    return fail(
      'INVALID_OPTION',
      name,
      `\`effect\` must be one line of text (at most ${MAX_EFFECT_LENGTH} characters), like "Emails the customer at {to}".`,
    );
  return effect;
}

/**
 * A send tool's `payloadSchema` and `editable`, checked: only a send tool has them, `editable` needs a
 * schema whose properties name every field, and the fields are unique names.
 */
function checkPayloadSpec(fields: Fields, grade: SideEffect, name: string): PayloadSpec | undefined {
  const { payloadSchema, editable } = fields;
  if (payloadSchema === undefined && editable === undefined) return undefined;
  if (grade !== 'send')
    fail(
      'INVALID_OPTION',
      name,
      '`payloadSchema` and `editable` are for send tools, whose payload a person confirms.',
    );
  if (payloadSchema === undefined)
    fail('INVALID_SCHEMA', name, '`editable` needs a `payloadSchema` that the edited payload must pass.');
  const { json, standard } = checkInputSchema(payloadSchema, name, 'payloadSchema');
  let fieldNames: string[] = [];
  if (editable !== undefined) {
    if (!Array.isArray(editable) || editable.length > MAX_EDITABLE)
      fail(
        'INVALID_OPTION',
        name,
        `\`editable\` must be an array of at most ${MAX_EDITABLE} payload field names.`,
      );
    fieldNames = [...(editable as unknown[])].map((field) => {
      if (typeof field !== 'string' || field.length === 0 || field.length > 128)
        return fail('INVALID_OPTION', name, '`editable` must hold payload field names (non-empty strings).');
      return field;
    });
    if (new Set(fieldNames).size !== fieldNames.length)
      fail('INVALID_OPTION', name, '`editable` names a field twice.');
    const properties = isRecord(json.properties) ? json.properties : {};
    const unknown = fieldNames.filter((field) => !Object.hasOwn(properties, field));
    if (unknown.length > 0)
      fail(
        'INVALID_OPTION',
        name,
        `\`editable\` names ${unknown.map((f) => JSON.stringify(f)).join(', ')}, which payloadSchema's properties do not describe.`,
      );
  }
  return Object.freeze({ json, standard, editable: Object.freeze(fieldNames) });
}

/**
 * Rules read the input, and judge a person's edit by laying each edited payload field over the input
 * field of the same name: an editable field the input has not got would be an edit no rule sees.
 */
function checkEditsReadable(editable: readonly string[], input: JsonSchema, name: string): void {
  const properties = isRecord(input.properties) ? input.properties : {};
  const unseen = editable.filter((field) => !Object.hasOwn(properties, field));
  if (unseen.length > 0)
    fail(
      'INVALID_RULE',
      name,
      `\`editable\` names ${unseen.map((f) => JSON.stringify(f)).join(', ')}, which inputSchema's properties do not describe: the rules judge an edit as the input field of the same name. Name the payload field as the input field, or make it not editable.`,
    );
}

/**
 * Checks a definition and takes the snapshot the registry keeps: grade, gates, functions and a
 * deep-frozen copy of the schema, each read once. Nothing the app does to its object afterwards
 * changes what runs or who may run it. Throws `ToolDefinitionError` saying how to fix a mistake.
 */
export function checkDefinition(definition: ToolDefinition): RegisteredTool {
  if (!isRecord(definition))
    throw new ToolDefinitionError(
      'INVALID_OPTION',
      String(definition),
      'A tool definition must be an object.',
    );
  let fields: Fields;
  try {
    fields = readFields(definition);
  } catch (error) {
    throw new ToolDefinitionError(
      'INVALID_OPTION',
      '',
      `A tool definition could not be read: ${describeThrown(error)}`,
    );
  }
  const { name, wireName, domain } = checkName(fields);
  const grade = checkGrade(fields, name);
  checkFunctions(fields, grade, name);
  checkOptions(fields, name);
  const scopes = checkScopes(fields.scopes, name);
  const { json, text, standard } = checkInputSchema(fields.inputSchema, name);
  const payload = checkPayloadSpec(fields, grade, name);
  const effect = checkEffect(fields.effect, grade, name);
  const holdMs = checkHoldMs(fields.holdMs, grade, name);
  const escalate = checkEscalate(fields.escalate, grade, name);
  const rules = compileRules(withToolPasskey(fields, name), grade, {
    json,
    isStandard: standard !== undefined,
  });
  const { destinations, egress } = checkDestinations(fields, grade, json, standard !== undefined, name);
  if (rules instanceof RuleProblem) fail('INVALID_RULE', name, `${rules.message}.`);
  if (rules.length > 0 && payload !== undefined) checkEditsReadable(payload.editable, json, name);
  const info: ToolInfo = Object.freeze({
    name,
    wireName,
    domain,
    title: (fields.title as string | undefined) ?? name,
    description: fields.description as string,
    sideEffect: grade,
    scopes,
    featureFlag: fields.featureFlag as string | undefined,
    timeoutMs: fields.timeoutMs as number | undefined,
    openWorld: fields.openWorld === true,
    inputSchema: json,
    ...(effect === undefined ? {} : { effect }),
    ...(holdMs === undefined ? {} : { holdMs }),
    ...(rules.length === 0 ? {} : { rules: Object.freeze(rules.map(describeRule)) }),
    ...(destinations === undefined ? {} : { destinations }),
    ...(egress === undefined
      ? {}
      : { egress: egress.allow.length === 0 ? (true as const) : Object.freeze({ allow: egress.allow }) }),
  });
  // Called as methods on the app's object, as before: a tool written as a class keeps its `this`.
  return Object.freeze({
    info,
    receiver: definition,
    run: fields.run as ToolFunction | undefined,
    prepare: fields.prepare as ToolFunction | undefined,
    deliver: fields.deliver as ToolFunction | undefined,
    schemaJson: text,
    standard,
    payload,
    rules,
    ...(escalate === undefined ? {} : { escalate }),
    ...(egress === undefined ? {} : { egress: egress.allowed }),
  });
}

/** A send tool's escalation steps, read once (`readEscalation` says what is wrong with them). */
function checkEscalate(
  value: unknown,
  grade: SideEffect,
  name: string,
): readonly EscalationStep[] | undefined {
  if (value === undefined) return undefined;
  if (grade !== 'send') return fail('INVALID_OPTION', name, '`escalate` is only for `send` tools.');
  const steps = readEscalation(value, 'escalate');
  return typeof steps === 'string' ? fail('INVALID_OPTION', name, `${steps}.`) : steps;
}

/** The rule a tool's `passkey: true` stands for, after the tool's own rules: it always applies. */
export const TOOL_PASSKEY_RULE = 'tool.passkey';

function withToolPasskey(fields: Fields, name: string): unknown {
  const { passkey, rules } = fields;
  if (passkey === undefined || passkey === false) return rules;
  if (passkey !== true) fail('INVALID_OPTION', name, '`passkey` must be true or false.');
  if (rules !== undefined && !Array.isArray(rules)) return rules;
  return [...((rules as unknown[] | undefined) ?? []), { name: TOOL_PASSKEY_RULE, passkey: true }];
}

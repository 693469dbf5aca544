import { ToolDefinitionError } from '../errors/tool-definition-error.js';
import type { JsonSchema } from '../json-schema.js';
import type { GateSnapshot } from '../policy/call-context.js';
import { isAvailableIn, isModelCallable } from '../policy/gates.js';
import type { ToolInfo } from '../tool-info.js';
import { describeThrown } from '../util/describe-thrown.js';
import { createDefaultValidator } from '../validation/default-validator.js';
import type { CompiledValidator, JsonSchemaValidator } from '../validation/validator.js';
import { type FunctionSchema, toModelParameters } from './function-schema.js';
import { ModelListCache } from './model-list.js';
import type { RegisteredTool } from './registered-tool.js';

/** A schema's validator, shared by every tool registered with an identical schema. */
interface SharedValidator {
  /** The compiled validator, or why the schema cannot be compiled; compiled on first use. */
  compiled: CompiledValidator | string | undefined;
  users: number;
}

/** One registered tool with what the table keeps for it. */
export interface ToolEntry {
  readonly tool: RegisteredTool;
  /** The schema as JSON: the key of its shared validator. */
  readonly schemaKey: string;
  readonly validator: SharedValidator;
  modelSchema: FunctionSchema | undefined;
  /** A send tool's compiled `payloadSchema` (JSON Schema only), compiled at a person's first edit. */
  payloadValidator: CompiledValidator | string | undefined;
}

/**
 * The registered tools: snapshots by internal and wire name (which never collide — only internal
 * names hold a dot), their validators compiled on first use and shared between identical schemas,
 * and the model's list per context.
 */
export class ToolTable {
  readonly #byName = new Map<string, ToolEntry>();
  readonly #byAnyName = new Map<string, ToolEntry>();
  readonly #validators = new Map<string, SharedValidator>();
  readonly #modelLists = new ModelListCache();
  readonly #validator: JsonSchemaValidator;
  /** The validator's `load()`, awaited before the first compile (resolving to why it failed); `true` once loaded. */
  #loaded: Promise<string | undefined> | true | undefined;

  constructor(validator: JsonSchemaValidator | undefined) {
    // Creating a validator loads nothing: its engine is imported on the first compile.
    this.#validator = validator ?? createDefaultValidator();
  }

  get size(): number {
    return this.#byName.size;
  }

  /** Adds a snapshot; throws `ToolDefinitionError` for a duplicate (unless `replace`) or a wire-name collision. */
  add(tool: RegisteredTool, replace: boolean): void {
    const { name, wireName } = tool.info;
    if (this.#byName.has(name) && !replace) {
      throw new ToolDefinitionError(
        'DUPLICATE_NAME',
        name,
        `Tool "${name}" is already registered. Pick another name, or pass { replace: true } to replace it.`,
      );
    }
    const wireOwner = this.#byAnyName.get(wireName);
    if (wireOwner !== undefined && wireOwner.tool.info.name !== name) {
      throw new ToolDefinitionError(
        'WIRE_NAME_COLLISION',
        name,
        `Tool "${name}" has the wire name "${wireName}", which "${wireOwner.tool.info.name}" already uses. Rename one of them.`,
      );
    }
    this.#refuseUnsupported(tool);
    this.remove(name);
    const schemaKey = tool.schemaJson;
    const validator = this.#validators.get(schemaKey) ?? { compiled: undefined, users: 0 };
    validator.users += 1;
    this.#validators.set(schemaKey, validator);
    const entry: ToolEntry = {
      tool,
      schemaKey,
      validator,
      modelSchema: undefined,
      payloadValidator: undefined,
    };
    this.#byName.set(name, entry);
    this.#byAnyName.set(name, entry);
    this.#byAnyName.set(wireName, entry);
    this.#modelLists.clear();
  }

  /** Removes a tool by internal or wire name, releasing its validator; true when one was removed. */
  remove(name: string): boolean {
    const entry = this.resolve(name);
    if (entry === undefined) return false;
    this.#byName.delete(entry.tool.info.name);
    this.#byAnyName.delete(entry.tool.info.name);
    this.#byAnyName.delete(entry.tool.info.wireName);
    entry.validator.users -= 1;
    if (entry.validator.users === 0) this.#validators.delete(entry.schemaKey);
    this.#modelLists.clear();
    return true;
  }

  /** A tool by internal (`kb.search`) or wire (`kb__search`) name. */
  resolve(name: unknown): ToolEntry | undefined {
    return typeof name === 'string' ? this.#byAnyName.get(name) : undefined;
  }

  /**
   * The longest `timeoutMs` among the tools a confirmation can deliver or run — sends, and writes a
   * person confirms — (the default for those without one); 0 for none.
   */
  longestDeliveryTimeoutMs(defaultTimeoutMs: number): number {
    let longest = 0;
    for (const { info } of this.tools())
      if (info.sideEffect !== 'read') longest = Math.max(longest, info.timeoutMs ?? defaultTimeoutMs);
    return longest;
  }

  /** Every tool, in registration order. */
  *tools(): IterableIterator<RegisteredTool> {
    for (const entry of this.#byName.values()) yield entry.tool;
  }

  /**
   * The entry's compiled JSON Schema validator, or why its schema cannot be compiled. Compiled on
   * first use (registering 10,000 tools compiles nothing), once for identical schemas, and released
   * with the last tool that uses it. A promise only until the validator's engine has loaded: the one
   * place where a JSON Schema call waits for it.
   */
  validatorOf(entry: ToolEntry): CompiledValidator | string | Promise<CompiledValidator | string> {
    if (entry.validator.compiled !== undefined) return entry.validator.compiled;
    const loading = this.#load();
    if (loading !== undefined) return loading.then((failure) => failure ?? this.validatorOf(entry));
    entry.validator.compiled = this.#compileSchema(entry.tool.info.inputSchema);
    return entry.validator.compiled;
  }

  /**
   * The entry's compiled `payloadSchema` validator (a JSON Schema one; a Standard Schema validates
   * itself), or why it cannot be compiled. Edits are rare: compiled on the first, never shared.
   */
  payloadValidatorOf(
    entry: ToolEntry,
  ): CompiledValidator | string | undefined | Promise<CompiledValidator | string | undefined> {
    const spec = entry.tool.payload;
    if (spec === undefined || spec.standard !== undefined) return undefined;
    if (entry.payloadValidator !== undefined) return entry.payloadValidator;
    const loading = this.#load();
    if (loading !== undefined) return loading.then((failure) => failure ?? this.payloadValidatorOf(entry));
    entry.payloadValidator = this.#compileSchema(spec.json);
    return entry.payloadValidator;
  }

  /** The tools the model may see under `gates`, in OpenAI's function shape, cached per context. */
  /** The tools' infos matching a filter (read once): a domain, a grade, availability in a scope. */
  infos(filter: unknown): ToolInfo[] {
    let domain: unknown;
    let sideEffect: unknown;
    let scope: unknown;
    try {
      ({ domain, sideEffect, scope } = (filter ?? {}) as Record<string, unknown>);
    } catch {
      return []; // An unreadable filter lists nothing.
    }
    const infos: ToolInfo[] = [];
    for (const { info } of this.tools()) {
      if (domain !== undefined && info.domain !== domain) continue;
      if (sideEffect !== undefined && info.sideEffect !== sideEffect) continue;
      if (scope !== undefined && !isAvailableIn(info, scope)) continue;
      infos.push(info);
    }
    return infos;
  }

  modelList(gates: GateSnapshot): readonly FunctionSchema[] {
    return this.#modelLists.get(gates, () => {
      const list: FunctionSchema[] = [];
      for (const entry of this.#byName.values()) {
        if (isModelCallable(entry.tool.info, gates)) list.push(this.#modelSchemaOf(entry));
      }
      return list;
    });
  }

  #modelSchemaOf(entry: ToolEntry): FunctionSchema {
    const { info } = entry.tool;
    entry.modelSchema ??= Object.freeze({
      name: info.wireName,
      description: info.description,
      parameters: toModelParameters(info.inputSchema),
    });
    return entry.modelSchema;
  }

  /** Starts the validator's `load()` once: what to wait for (resolving to why it failed), or undefined once loaded. */
  #load(): Promise<string | undefined> | undefined {
    if (this.#loaded === true) return undefined;
    if (this.#loaded === undefined) {
      let loading: Promise<void> | undefined; // undefined: nothing to wait for
      try {
        loading = this.#validator.load?.();
      } catch (error) {
        loading = Promise.reject(error);
      }
      if (loading === undefined) {
        this.#loaded = true;
        return undefined;
      }
      this.#loaded = loading.then(
        () => {
          this.#loaded = true;
          return undefined;
        },
        (error: unknown) => {
          this.#loaded = undefined; // The calls waiting now are told why; the next one tries again.
          return `the JSON Schema validator could not be loaded (${describeThrown(error)})`;
        },
      );
    }
    return this.#loaded;
  }

  #compileSchema(schema: JsonSchema): CompiledValidator | string {
    try {
      return this.#validator.compile(schema);
    } catch (error) {
      return describeThrown(error);
    }
  }

  /** The validator's own refusal (e.g. a pattern it could backtrack on), at register rather than at a call. */
  #refuseUnsupported(tool: RegisteredTool): void {
    const { findUnsupported } = this.#validator;
    if (findUnsupported === undefined) return;
    const problem =
      (tool.standard === undefined
        ? findUnsupported.call(this.#validator, tool.info.inputSchema)
        : undefined) ??
      (tool.payload !== undefined && tool.payload.standard === undefined
        ? findUnsupported.call(this.#validator, tool.payload.json)
        : undefined);
    if (problem !== undefined)
      throw new ToolDefinitionError(
        'UNSUPPORTED_SCHEMA',
        tool.info.name,
        `Tool "${tool.info.name}": ${problem}`,
      );
  }
}

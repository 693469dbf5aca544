import type { StandardSchemaV1 } from '@standard-schema/spec';
import type { JsonSchema } from '../json-schema.js';
import type { EscalationStep } from '../notice.js';
import type { CompiledRule } from '../policy/rules/compile-rules.js';
import type { ToolInfo } from '../tool-info.js';

/** A tool's `run`, `prepare` or `deliver` as taken at register. */
// biome-ignore lint/suspicious/noExplicitAny: a registry holds tools of every input and output type
export type ToolFunction = (this: unknown, input: any, second: any) => unknown;

/**
 * A tool as registered: the snapshot `register` took. Every call dispatches on this, never on the
 * app's definition object, which the app may keep changing.
 */
export interface RegisteredTool {
  /** Frozen, with a deep-frozen copy of the schema; what `get` and `list` hand out. */
  readonly info: ToolInfo;
  /** The app's definition object, only as `this` for its functions. */
  readonly receiver: object;
  readonly run: ToolFunction | undefined;
  readonly prepare: ToolFunction | undefined;
  readonly deliver: ToolFunction | undefined;
  /** The schema as JSON text: identical schemas share one compiled validator by it. */
  readonly schemaJson: string;
  /** A Standard Schema's `validate` as it was at register; undefined for JSON Schema. */
  readonly standard: StandardSchemaV1 | undefined;
  /** A send tool's `payloadSchema` and `editable` fields, when it declares them. */
  readonly payload: PayloadSpec | undefined;
  /** The rules, compiled at register (empty: none). */
  readonly rules: readonly CompiledRule[];
  /** A send tool's own escalation steps, read at register; absent: the registry's `notify.escalate`. */
  readonly escalate?: readonly EscalationStep[];
  /** An egress read's `allow` list as value keys (`egress: true`: empty); absent: not an egress read. */
  readonly egress?: ReadonlySet<string>;
}

/** What a person may change in a send tool's payload before confirming, and what it must match. */
export interface PayloadSpec {
  /** `payloadSchema` as deep-frozen JSON Schema (derived once for a Standard Schema). */
  readonly json: JsonSchema;
  /** The Standard Schema's `validate` as it was at register; undefined for JSON Schema. */
  readonly standard: StandardSchemaV1 | undefined;
  /** The top-level fields a person may edit, frozen (empty: none). */
  readonly editable: readonly string[];
}

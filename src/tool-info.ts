import type { JsonSchema } from './json-schema.js';
import type { RuleInfo } from './rule.js';
import type { SideEffect } from './tool.js';

/**
 * What the registry tells about a registered tool: everything but its functions, so a listing never
 * hands out a way to `deliver`.
 */
export interface ToolInfo {
  readonly name: string;
  readonly wireName: string;
  readonly domain: string;
  readonly title: string;
  readonly description: string;
  readonly sideEffect: SideEffect;
  readonly scopes: readonly string[] | undefined;
  readonly featureFlag: string | undefined;
  readonly timeoutMs: number | undefined;
  readonly openWorld: boolean;
  /** The input as JSON Schema (derived once for a Standard Schema). */
  readonly inputSchema: JsonSchema;
  /** A send's or a write's `effect`: what confirming does, for approvers (`describeEffect` fills it in). */
  readonly effect?: string;
  /** A send tool's undo window (`holdMs`): how long a confirmed send waits before it is delivered. */
  readonly holdMs?: number;
  /** The tool's rules as a reviewer reads them (a function shows as `'(function)'`); absent: none. */
  readonly rules?: readonly RuleInfo[];
  /** Input fields (names, dotted paths, JSON Pointers) whose values say where the call goes: their origins are recorded within a run. */
  readonly destinations?: readonly string[];
  /** A read that reaches outside: `true`, or the values it may always reach (`{ allow }`). */
  readonly egress?: true | { readonly allow: readonly string[] };
}

/** Filters for `registry.list`. */
export interface ListFilter {
  readonly domain?: string;
  readonly sideEffect?: SideEffect;
  /** Only tools available in this scope (tools without `scopes` are available everywhere). */
  readonly scope?: string;
}

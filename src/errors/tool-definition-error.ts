/** Why `register` refused a tool definition. */
export type DefinitionErrorCode =
  | 'INVALID_NAME'
  | 'WIRE_NAME_TOO_LONG'
  | 'WIRE_NAME_COLLISION'
  | 'DUPLICATE_NAME'
  | 'DOMAIN_MISMATCH'
  | 'INVALID_SCHEMA'
  /** A `pattern` or `patternProperties` key the linear-time (RE2) engine cannot run: backreferences, lookaround. */
  | 'UNSUPPORTED_PATTERN'
  | 'INVALID_GRADE'
  | 'MISSING_RUN'
  | 'SEND_WITH_RUN'
  | 'SEND_WITHOUT_DELIVERY'
  | 'INVALID_OPTION'
  /** A rule that cannot be used: a CEL expression that does not compile or type-check, an effect the grade cannot have. */
  | 'INVALID_RULE'
  /** A provider adapter cannot express the tool's input schema (e.g. OpenAI strict mode, a root `anyOf`). */
  | 'UNSUPPORTED_SCHEMA'
  /** More model-facing tools than a provider accepts in one request. */
  | 'TOO_MANY_TOOLS';

/**
 * A programmer's mistake found at setup, with a message that says how to fix it: thrown by `register`
 * for a tool definition, by the `ToolRegistry` constructor and the stores' constructors for an
 * option that makes no sense, and by a provider adapter when it lists tools that provider cannot
 * take (a schema keyword it refuses, too many tools). The only error this library throws; everything
 * a model or user can cause is a result.
 *
 * @example
 * ```ts
 * import { ToolDefinitionError, ToolRegistry } from 'graded-tools';
 * try {
 *   new ToolRegistry().register({
 *     name: 'search',
 *     description: 'Search.',
 *     sideEffect: 'read',
 *     inputSchema: { type: 'object' },
 *     run: () => [],
 *   });
 * } catch (error) {
 *   if (error instanceof ToolDefinitionError) console.log(error.code); // 'INVALID_NAME'
 * }
 * ```
 */
export class ToolDefinitionError extends Error {
  override readonly name = 'ToolDefinitionError';
  readonly code: DefinitionErrorCode;
  /** The tool name as given (possibly invalid). */
  readonly toolName: string;

  constructor(code: DefinitionErrorCode, toolName: string, message: string) {
    super(message);
    this.code = code;
    this.toolName = toolName;
  }
}

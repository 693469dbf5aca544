import { ToolDefinitionError } from '../../errors/tool-definition-error.js';
import type { GateContext } from '../../policy/gates.js';
import type { ToolRegistry } from '../../registry.js';
import type { FunctionSchema } from '../../tools/function-schema.js';

/** The internal name behind a wire name, for error messages a developer reads. */
export function internalName<C>(registry: ToolRegistry<C>, wireName: string): string {
  return registry.get(wireName)?.name ?? wireName;
}

/**
 * Exactly the model's list, `registry.toFunctionSchemas(ctx)`, refused with `TOO_MANY_TOOLS` when it
 * is longer than the provider accepts: a clear error at list time instead of an HTTP 400 later.
 */
export function modelTools<AppContext>(
  registry: ToolRegistry<AppContext>,
  ctx: GateContext,
  provider: string,
  maxTools: number,
): FunctionSchema[] {
  const schemas = registry.toFunctionSchemas(ctx);
  if (schemas.length > maxTools) {
    const first = schemas[maxTools];
    throw new ToolDefinitionError(
      'TOO_MANY_TOOLS',
      first === undefined ? '' : internalName(registry, first.name),
      `${provider} accepts at most ${maxTools} tools in one request, but ${schemas.length} are callable by the model in this context (scope ${ctx.scope === undefined ? '(none)' : `"${ctx.scope}"`}). Narrow them with scopes or feature flags, or split the agent.`,
    );
  }
  return schemas;
}

/**
 * Refuses a tool whose schema root uses a keyword the provider rejects there (OpenAI: no
 * `anyOf`/`oneOf`/`allOf`/`enum`/`const`/`not` at the root; Anthropic: no `anyOf`/`oneOf`/`allOf`).
 */
export function refuseRootKeywords<C>(
  registry: ToolRegistry<C>,
  schema: FunctionSchema,
  keywords: readonly string[],
  provider: string,
): void {
  for (const keyword of keywords) {
    if (Object.hasOwn(schema.parameters, keyword)) {
      const name = internalName(registry, schema.name);
      throw new ToolDefinitionError(
        'UNSUPPORTED_SCHEMA',
        name,
        `Tool "${name}": ${provider} rejects \`${keyword}\` at the root of a tool's input schema. Describe the input as one object with properties (move \`${keyword}\` into a property), or leave this tool out of this context.`,
      );
    }
  }
}

import { ToolRegistry } from './registry.js';

let shared: ToolRegistry | undefined;

/**
 * The process-wide registry, made on first use: a convenience for small apps and scripts. Tests and
 * multi-tenant apps should create their own `ToolRegistry` and pass it where needed.
 *
 * @example
 * ```ts
 * import { getDefaultRegistry } from 'graded-tools';
 * getDefaultRegistry().size; // 0 until something registers
 * ```
 */
export function getDefaultRegistry(): ToolRegistry {
  shared ??= new ToolRegistry();
  return shared;
}

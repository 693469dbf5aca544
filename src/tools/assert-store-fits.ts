import { ToolDefinitionError } from '../errors/tool-definition-error.js';
import type { ConfirmationStore } from '../stores/store.js';
import type { RegisteredTool } from './registered-tool.js';

/**
 * What a tool needs of the registry's confirmation store, refused at `register` rather than at the
 * first call: a store that counts its rules' limits, and one that keeps held sends for its `holdMs`.
 */
export function assertStoreFits(tool: RegisteredTool, store: ConfirmationStore): void {
  const { name, holdMs } = tool.info;
  if (typeof store.spendLimit !== 'function' && tool.rules.some((rule) => rule.effect.kind === 'limit'))
    throw new ToolDefinitionError(
      'INVALID_RULE',
      name,
      `Tool "${name}": its limits are counted in the confirmation store, and this one has no \`spendLimit\`. Use the memory, SQLite or PostgreSQL store.`,
    );
  if (holdMs === undefined) return;
  const keepsHeld = ['dueScheduled', 'deliverDue', 'cancel'].every(
    (method) => typeof store[method as keyof ConfirmationStore] === 'function',
  );
  if (!keepsHeld)
    throw new ToolDefinitionError(
      'INVALID_OPTION',
      name,
      `Tool "${name}": its undo window (\`holdMs\`) keeps confirmed sends in the confirmation store, and this one has no \`dueScheduled\`, \`deliverDue\` and \`cancel\`. Use the memory, SQLite or PostgreSQL store.`,
    );
}

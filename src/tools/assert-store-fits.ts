import { type DefinitionErrorCode, ToolDefinitionError } from '../errors/tool-definition-error.js';
import type { ConfirmationStore, StoreCapability } from '../stores/store.js';
import { describeCapability, hasCapability } from '../stores/store-capabilities.js';
import type { RegisteredTool } from './registered-tool.js';

/** A capability a tool needs of the store, the definition error it is refused with, and why it needs it. */
interface Need {
  readonly capability: StoreCapability;
  readonly code: DefinitionErrorCode;
  readonly because: string;
}

/**
 * What a tool needs of the registry's confirmation store, refused at `register` rather than at the
 * first call: its rules' limits are counted there, its quorum rules record approvals there, its undo
 * window (`holdMs`) keeps sends there, its own escalation steps are claimed there.
 */
export function assertStoreFits(tool: RegisteredTool, store: ConfirmationStore): void {
  const { name } = tool.info;
  for (const need of needsOf(tool)) {
    if (hasCapability(store, need.capability)) continue;
    throw new ToolDefinitionError(
      need.code,
      name,
      `Tool "${name}": ${need.because}, and this confirmation store lacks the capability ${describeCapability(need.capability)}. Use the memory, SQLite or PostgreSQL store.`,
    );
  }
}

function needsOf(tool: RegisteredTool): Need[] {
  const needs: Need[] = [];
  if (tool.rules.some((rule) => rule.effect.kind === 'limit'))
    needs.push({
      capability: 'limits',
      code: 'INVALID_RULE',
      because: 'its limits are counted in the store',
    });
  if (
    tool.rules.some(
      (rule) => rule.mode === 'enforce' && rule.effect.kind === 'approve' && rule.effect.approvals > 1,
    )
  )
    needs.push({
      capability: 'quorum',
      code: 'INVALID_RULE',
      because: 'a rule asks several people to approve, and their approvals are kept in the store',
    });
  if (tool.info.holdMs !== undefined)
    needs.push({
      capability: 'held',
      code: 'INVALID_OPTION',
      because: 'its undo window (`holdMs`) keeps confirmed sends in the store',
    });
  if (tool.escalate !== undefined && tool.escalate.length > 0)
    needs.push({
      capability: 'escalations',
      code: 'INVALID_OPTION',
      because: 'its escalation steps (`escalate`) are claimed in the store',
    });
  return needs;
}

/**
 * What the registry's own options need of its store, refused when it is constructed: reminders
 * (`notify.remindBeforeMs`) and escalation steps for every send tool (`notify.escalate`) are claimed
 * in the store, or would silently never go out.
 */
export function assertStoreServesNotify(
  notify: { readonly remindBeforeMs: number; readonly escalate: readonly unknown[] | undefined },
  store: ConfirmationStore,
): void {
  const needs: [StoreCapability, string, boolean][] = [
    ['reminders', '`notify.remindBeforeMs`', notify.remindBeforeMs > 0],
    ['escalations', '`notify.escalate`', notify.escalate !== undefined && notify.escalate.length > 0],
  ];
  for (const [capability, option, needed] of needs) {
    if (!needed || hasCapability(store, capability)) continue;
    throw new ToolDefinitionError(
      'INVALID_OPTION',
      '',
      `new ToolRegistry: ${option} needs a confirmation store with the capability ${describeCapability(capability)}, and this one lacks it. Use the memory, SQLite or PostgreSQL store, or leave ${option} out.`,
    );
  }
}

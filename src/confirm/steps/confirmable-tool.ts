import { checkPayload } from '../../tools/check-payload.js';
import type { ToolTable } from '../../tools/tool-table.js';
import type { SendToolHandle } from '../flow-context.js';

/**
 * The tool a confirmation delivers with, as registered now (one unregistered since is refused): a send
 * tool's `deliver`, or the `run` of a write tool sent to a person, given the confirmed input, the scope it
 * was confirmed in and the confirm's `context`.
 */
export function confirmableTool(table: ToolTable, name: string): SendToolHandle | undefined {
  const entry = table.resolve(name);
  const tool = entry?.tool;
  if (entry === undefined || tool === undefined) return undefined;
  const { info, run, deliver } = tool;
  if (info.sideEffect === 'write' && run !== undefined) {
    return {
      info,
      deliver: (input, approval, runIn) =>
        run.call(tool.receiver, input, {
          signal: approval.signal,
          caller: 'person',
          scope: runIn.scope,
          context: runIn.context,
          toolName: info.name,
        }),
      payloadSchema: undefined,
      edit: undefined,
    };
  }
  if (info.sideEffect !== 'send' || deliver === undefined) return undefined;
  const spec = tool.payload;
  return {
    info,
    deliver: (payload, approval) => deliver.call(tool.receiver, payload, approval),
    payloadSchema: spec?.json,
    edit:
      spec === undefined
        ? undefined
        : {
            editable: spec.editable,
            check: (payload) => checkPayload(table, entry, payload),
            rules: tool.rules,
          },
  };
}

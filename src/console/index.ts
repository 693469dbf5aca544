// `graded-tools/console`: the approvals console. Imports nothing but the core and Node built-ins.

export { createApprovalsConsole } from './create-console.js';
export type { NodeListenerOptions } from './node-listener.js';
export { toNodeListener } from './node-listener.js';
export type {
  ApprovalLinkOptions,
  ApprovalLinkResult,
  ApprovalsConsole,
  ApprovalsConsoleOptions,
  ConsoleAction,
  ConsolePerson,
} from './types.js';

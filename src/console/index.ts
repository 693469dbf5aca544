// `graded-tools/console`: the approvals console. Imports nothing but the core and Node built-ins, and its
// types need no `@types/node`: the Node listener's request and response are declared by shape.

export { createApprovalsConsole } from './create-console.js';
export type { NodeListenerOptions, NodeListenerRequest, NodeListenerResponse } from './node-listener.js';
export { toNodeListener } from './node-listener.js';
export type {
  ApprovalLinkOptions,
  ApprovalLinkResult,
  ApprovalsConsole,
  ApprovalsConsoleOptions,
  ConsoleAction,
  ConsolePerson,
} from './types.js';

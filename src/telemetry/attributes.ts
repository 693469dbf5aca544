import type { ConfirmationStep } from './telemetry.js';

/**
 * The attribute names spans carry: the GenAI semantic conventions' own where they have one, ours
 * under `graded_tools.` for what only a graded registry knows.
 */
export const ATTR = {
  operation: 'gen_ai.operation.name',
  toolName: 'gen_ai.tool.name',
  toolType: 'gen_ai.tool.type',
  toolDescription: 'gen_ai.tool.description',
  callId: 'gen_ai.tool.call.id',
  arguments: 'gen_ai.tool.call.arguments',
  result: 'gen_ai.tool.call.result',
  errorType: 'error.type',
  grade: 'graded_tools.grade',
  caller: 'graded_tools.caller',
  refusal: 'graded_tools.refusal',
  confirmationId: 'graded_tools.confirmation.id',
  confirmationStatus: 'graded_tools.confirmation.status',
  confirmationStep: 'graded_tools.confirmation.step',
  confirmationBy: 'graded_tools.confirmation.by',
  confirmationDecision: 'graded_tools.confirmation.decision',
  confirmationApprovals: 'graded_tools.confirmation.approvals',
  confirmationApprovalsNeeded: 'graded_tools.confirmation.approvals_needed',
  confirmationHeld: 'graded_tools.confirmation.held',
  confirmationCancelled: 'graded_tools.confirmation.cancelled',
  confirmationEscalated: 'graded_tools.confirmation.escalated',
  bundleId: 'graded_tools.bundle.id',
  bundleStep: 'graded_tools.bundle.step',
} as const;

/** A confirmation step's span name, before the tool's name: a confirm or retry executes the tool. */
export const STEP_NAME: Readonly<Record<ConfirmationStep, string>> = {
  confirm: 'execute_tool',
  retry: 'execute_tool',
  reject: 'reject',
  markDelivered: 'mark_delivered',
  cancel: 'cancel',
};

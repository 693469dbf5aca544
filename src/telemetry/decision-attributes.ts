import type { Confirmation } from '../confirmation.js';
import { ATTR } from './attributes.js';
import type { ConfirmationDecision } from './telemetry.js';

const DECIDED: Readonly<Record<string, string>> = {
  confirm: 'confirmed',
  retry: 'confirmed',
  reject: 'rejected',
  markDelivered: 'delivered',
  cancel: 'cancelled',
};

/** The decision of `step` that ended with `confirmation` (`code` when it was refused). */
export function decisionOf(
  step: string,
  confirmation: Confirmation,
  code: string | undefined,
): ConfirmationDecision {
  const decision =
    code === undefined ? (DECIDED[step] ?? step) : code === 'AWAITING_APPROVALS' ? 'approved' : 'refused';
  const needed = confirmation.requires?.approvals;
  return {
    decision,
    ...(needed === undefined
      ? {}
      : { approvals: confirmation.approvals?.length ?? 0, approvalsNeeded: needed }),
    held: confirmation.status === 'scheduled',
    cancelled: confirmation.status === 'cancelled',
    escalated: confirmation.history.some((entry) => entry.escalated !== undefined),
    ...(confirmation.bundle === undefined
      ? {}
      : { bundle: { id: confirmation.bundle.id, index: confirmation.bundle.index } }),
  };
}

/**
 * `graded_tools.confirmation.decision`, `.approvals`, `.approvals_needed`, `.held`, `.cancelled`,
 * `.escalated`, and for a bundle's step `graded_tools.bundle.id` and `.step`.
 */
export function decisionAttributes(decided: ConfirmationDecision): Record<string, string | number | boolean> {
  const attributes: Record<string, string | number | boolean> = {
    [ATTR.confirmationDecision]: decided.decision,
    [ATTR.confirmationHeld]: decided.held,
    [ATTR.confirmationCancelled]: decided.cancelled,
    [ATTR.confirmationEscalated]: decided.escalated,
  };
  if (decided.approvals !== undefined) attributes[ATTR.confirmationApprovals] = decided.approvals;
  if (decided.approvalsNeeded !== undefined)
    attributes[ATTR.confirmationApprovalsNeeded] = decided.approvalsNeeded;
  if (decided.bundle !== undefined) {
    attributes[ATTR.bundleId] = decided.bundle.id;
    attributes[ATTR.bundleStep] = decided.bundle.index;
  }
  return attributes;
}

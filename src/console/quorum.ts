import type { Confirmation } from '../confirmation.js';
import { readFlags } from '../policy/call-context.js';
import type { Quorum } from './card-view.js';

/**
 * What the tool's rules asked of the approvers (`requires`), and who approved the payload as it is
 * now: approvals of an earlier digest (an edit started the count again) are not counted. `undefined`:
 * one plain approval, as the gates and four eyes say.
 */
export function quorumOf(
  confirmation: Pick<Confirmation, 'requires' | 'approvals' | 'digest'>,
): Quorum | undefined {
  const { requires } = confirmation;
  // A passkey alone asks no more people than one: no quorum to show ("Needs 1 approvals").
  if (requires === undefined || (requires.approvals <= 1 && requires.approverFlags.length === 0))
    return undefined;
  const approvedBy = (confirmation.approvals ?? [])
    .filter((approval) => approval.digest === confirmation.digest)
    .map((approval) => approval.by);
  return {
    needed: requires.approvals,
    flags: [...requires.approverFlags],
    approvedBy: [...new Set(approvedBy)],
  };
}

/**
 * The flags the rules ask of every approver that `flags` lacks: why the check list says
 * `FLAG_NOT_GRANTED` for a rule's `approverFlags` (empty: the refusal is the tool's own gate).
 */
export function missingApproverFlags(confirmation: Pick<Confirmation, 'requires'>, flags: unknown): string[] {
  const asked = confirmation.requires?.approverFlags ?? [];
  if (asked.length === 0) return [];
  const held = readFlags(flags).flags;
  return asked.filter((flag) => held[flag] !== true);
}

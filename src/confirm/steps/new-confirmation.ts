import type {
  Confirmation,
  ConfirmationIdempotency,
  CountedLimit,
  Origins,
  ValueOrigins,
} from '../../confirmation.js';
import type { ConfirmRequired, ErrorCode } from '../../result.js';
import type { ApprovalRequirement } from '../../rule.js';
import type { Proposal } from '../proposal.js';

/** What a person's invoke of a send tool produced, to be stored for confirmation. */
export interface NewConfirmation {
  readonly tool: string;
  /** `'write'`: the record says so, for every surface that words it (absent means a send). */
  readonly sideEffect?: 'send' | 'write' | undefined;
  readonly input: unknown;
  readonly payload: unknown;
  readonly actor: string | undefined;
  readonly scope: string | undefined;
  /** What the tool's rules ask of the approvers (more than one, or flagged ones). */
  readonly requires?: ApprovalRequirement | undefined;
  /** What the asker attached for the approver (`propose`): already read by `readProposal`. */
  readonly about?: Proposal | undefined;
  /** Within an agent run: where each destination came from (shown to the approver, read by rules). */
  readonly origins?: Origins | undefined;
  /** The same per value, in input order (shown to the approver). */
  readonly originValues?: ValueOrigins | undefined;
  /** The tool names `destinations` but the call named no run: every surface says so. */
  readonly originsOutsideRun?: true | undefined;
  /** What the call counted against limits that count on delivery (given back if it does not go out). */
  readonly counted?: readonly CountedLimit[] | undefined;
  /** Proposed with an `idempotencyKey`: the scoped key and the intent, stored with the record. */
  readonly idempotency?: ConfirmationIdempotency | undefined;
}

/** Why a confirmation could not be created: the registry words and reports it like any failure. */
export interface CreateRefusal {
  readonly ok: false;
  readonly code: ErrorCode;
  readonly detail: string;
}

/** What `ask` answers. */
export type Created = ConfirmRequired | CreateRefusal;

/** What a stored pending confirmation is answered with: exactly the data that was digested and stored. */
export function confirmRequired(confirmation: Confirmation): ConfirmRequired {
  return {
    ok: true,
    requiresConfirm: true,
    confirmPayload: confirmation.payload,
    confirmationId: confirmation.id,
    digest: confirmation.digest,
    expiresAt: confirmation.expiresAt,
  };
}

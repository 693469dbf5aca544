import type { CountedLimit, Origins, ValueOrigins } from '../confirmation.js';
import type { ConfirmRequired, ErrorCode } from '../result.js';
import type { ApprovalRequirement } from '../rule.js';

/** What the invoke path hands the confirmation side once a send's `prepare` has built its payload. */
export interface ConfirmationRequest {
  readonly tool: string;
  /** A `write` is confirmed as a change (its payload is its input), a `send` as what goes out. */
  readonly sideEffect: 'send' | 'write';
  readonly input: unknown;
  readonly payload: unknown;
  readonly actor: string | undefined;
  readonly scope: string | undefined;
  /** What the tool's rules ask of the approvers (more than one, or flagged ones). */
  readonly requires?: ApprovalRequirement;
  /** What the asker attached for the approver (`propose`): read and checked before the call started. */
  readonly about?: {
    readonly note?: string;
    readonly links?: readonly { readonly label: string; readonly url: string }[];
    readonly ref?: string;
  };
  /** Within an agent run, for a tool with `destinations`: where each destination came from. */
  readonly origins?: Origins;
  /** The same per value, in input order: which recipient came from where. */
  readonly originValues?: ValueOrigins;
  /** The tool names `destinations` but the call named no run: where they came from was not recorded. */
  readonly originsOutsideRun?: true;
  /** What the call counted against limits that count on delivery: the record keeps it, to give it back. */
  readonly counted?: readonly CountedLimit[];
}

/** The confirmation side's answer: the pending confirmation to show, or why none was made. */
export type ConfirmationAsked =
  | ConfirmRequired
  | { readonly ok: false; readonly code: ErrorCode; readonly detail: string };

/**
 * The narrow port the invoke path needs from the confirmation flow: store a prepared send as pending.
 * Declared here so that invoke does not import from the floor above it; the flow satisfies it as is.
 */
export type AskConfirmation = (request: ConfirmationRequest) => Promise<ConfirmationAsked>;

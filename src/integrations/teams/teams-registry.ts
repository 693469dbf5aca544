import type { BundleDecisionResult } from '../../confirm/bundles/decide-bundle.js';
import type {
  CancelOptions,
  ConfirmationResult,
  ConfirmationsView,
  ConfirmOptions,
  ConfirmResult,
  RejectOptions,
} from '../../confirm/types.js';
import type { Locale } from '../../messages/index.js';
import type { LimitState } from '../../messages/limit-words.js';

/**
 * What the Teams channel uses of a `ToolRegistry`: its decisions (Undo is `cancel`) and its read
 * view. Every decision made in Teams is one of these calls, so the registry's one check list — four
 * eyes, the rules' approvals and approver flags, the digest, the expiry, the gates — decides it.
 */
export interface TeamsRegistry {
  confirm(id: string, options: ConfirmOptions): Promise<ConfirmResult>;
  reject(id: string, options: RejectOptions): Promise<ConfirmationResult>;
  cancel(id: string, options: CancelOptions): Promise<ConfirmationResult>;
  /** A bundle approved whole from its one card (`ToolRegistry.confirmBundle`). */
  confirmBundle?(bundleId: string, options: ConfirmOptions): Promise<BundleDecisionResult>;
  /** "Reject all" on a bundle's card (`ToolRegistry.rejectBundle`). */
  rejectBundle?(bundleId: string, options: RejectOptions): Promise<BundleDecisionResult>;
  readonly confirmations: ConfirmationsView;
  /** Any registered tool's title (for the tools named in `origins`) and rules (whether it has limits). */
  get?(
    name: string,
  ): { readonly title: string; readonly rules?: readonly { readonly limit?: unknown }[] } | undefined;
  /** A dry check of the asker's call (`ToolRegistry.check`): where its limits stand, for the card. */
  check?(
    name: string,
    input?: unknown,
    ctx?: { readonly actor?: string; readonly scope?: string; readonly caller?: 'autonomous' },
  ): Promise<{ readonly limits: readonly LimitState[] }>;
  /** The registry's language, when the channel is given none. */
  readonly locale?: Locale;
}

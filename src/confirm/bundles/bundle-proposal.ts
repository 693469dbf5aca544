import type { ConfirmRequired, ToolFailure } from '../../result.js';

/** One step of a bundle as the asker gives it: a send or write tool and its input. */
export interface BundleStep {
  /** The tool's internal or wire name: a `send` or `write` tool. */
  readonly tool: string;
  readonly input?: unknown;
}

/** `proposeBundle` stored every step: the bundle id, its digest, and each step's `ConfirmRequired`. */
export interface BundleProposed {
  readonly ok: true;
  readonly bundleId: string;
  /** The bundle digest (`bundleDigest` of every step's digest, in order): pass it to `confirmBundle`. */
  readonly digest: string;
  /** Every step's pending confirmation, in order. */
  readonly confirmations: readonly ConfirmRequired[];
}

/** A bundle refused: nothing was stored. `step` (from 0) says which step refused, when one did. */
export type BundleRefused = ToolFailure & { readonly step?: number };

/** What `registry.proposeBundle` resolves to. Never rejects. */
export type ProposeBundleResult = BundleProposed | BundleRefused;

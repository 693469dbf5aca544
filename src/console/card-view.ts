// A wire type of the console: the server renders a confirmation as this, and the page reads it
// (src/console/page/ imports this file, so it imports types only).
import type { Confirmation } from '../confirmation.js';
import type { OriginsText } from '../origins/origin-words.js';
import type { Offer } from './offer.js';

/**
 * A confirmation as the page shows it: the record (with `sideEffect: 'write'` on a write, from the
 * record or its tool, so every word on the card is of a change applied), its tool's title (or name), what confirming does
 * (`effect`), the payload's field labels, the people's names, the buttons this person is offered, the
 * fields they may edit, the exact canonical JSON whose digest they confirm, and what the tool's rules
 * ask of the approvers (`quorum`).
 */
export type Card = Confirmation & {
  readonly title: string;
  readonly editable: string[];
  readonly canonicalJson: string;
  /** The tool's `effect`, filled from the payload: "Emails the customer at ana@example.com". */
  readonly effect?: string;
  /** Top-level payload field → its label (the schema's `title`, per locale), for the fields that have one. */
  readonly labels: Readonly<Record<string, string>>;
  /** Person id → the app's name for them, for the asker and everyone in the history. */
  readonly names: Readonly<Record<string, string>>;
  /** What the person may do with it now; the page offers nothing else. */
  readonly offer: Offer;
  /** What the tool's rules ask of the approvers, and who approved so far ("needs 2 … — Li approved"). */
  readonly quorum?: Quorum;
  /**
   * The tool's undo window (`holdMs`): a confirm that completes it holds it this long before it is
   * sent, so a page says "held until …", not "sent now".
   */
  readonly holdMs?: number;
  /**
   * Where each destination's value came from (`origins`, per value), in the person's words; "not
   * recorded" for a tool with destinations asked outside a run; absent when there is nothing to say.
   */
  readonly originsText?: OriginsText;
  /** Where each of the call's limits stands, in words (a pending card of a tool with limits). */
  readonly limitsText?: readonly string[];
  /**
   * A pending card proposed while another pending one of its tool had the same payload: "another
   * pending Refund with the same payload: #<id>", in the person's words.
   */
  readonly alikeText?: string;
  /**
   * A bundle's step (`proposeBundle`): the whole bundle as one card shows it — every step's card in
   * order, and what this person may decide about the bundle.
   */
  readonly bundleCard?: BundleCard;
};

/** A bundle as its one card shows it: every step exactly as it will go out, in order, and one decision. */
export interface BundleCard {
  readonly id: string;
  /** The bundle digest a decision is bound to. */
  readonly digest: string;
  readonly status: 'pending' | 'delivering' | 'delivered' | 'stopped' | 'unknown';
  readonly steps: readonly Card[];
  /**
   * "Approve all N steps" (`confirm`: this person's approval counts for at least one pending step) and
   * Reject (of the first pending step, which stops the rest); `whyNot` when Approve is not offered.
   */
  readonly offer: {
    readonly confirm: boolean;
    readonly reject: boolean;
    readonly whyNot?: string;
    readonly missingFlags?: readonly string[];
  };
}

/**
 * A confirmation's `requires` as the page shows it: how many different people must approve, the
 * feature flags each must hold, and who approved the payload as it is now (approvals of an earlier,
 * edited payload left out), oldest first. After the delivery: everyone who approved it.
 */
export interface Quorum {
  readonly needed: number;
  readonly flags: readonly string[];
  readonly approvedBy: readonly string[];
}

// A wire type of the console: the server renders a confirmation as this, and the page reads it
// (src/console/page/ imports this file, so it imports types only).
import type { Confirmation } from '../confirm/types.js';
import type { Offer } from './offer.js';

/**
 * A confirmation as the page shows it: the record, its tool's title (or name), what confirming does
 * (`effect`), the payload's field labels, the people's names, the buttons this person is offered, the
 * fields they may edit, and the exact canonical JSON whose digest they confirm.
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
};

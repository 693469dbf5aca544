// A wire type of the console: the server builds it, the page reads it (src/console/page/ imports this
// file, which therefore imports nothing).

/**
 * The buttons the server offers a person on one card; the page shows no others. `whyNot` says (as
 * the check list's code) why the approving one (Confirm, or Retry) is not offered although the status
 * would allow it: `FORBIDDEN` (`authorize`), `SAME_PERSON` (four eyes), `ALREADY_APPROVED` (a rule
 * asks for several people and this one approved), `FLAG_NOT_GRANTED`, `SCOPE_MISMATCH`, `EXPIRED` …
 */
export interface Offer {
  readonly confirm: boolean;
  readonly reject: boolean;
  readonly edit: boolean;
  readonly retry: boolean;
  readonly markDelivered: boolean;
  /** Undo: take back a send held in its undo window (`scheduled`), before it is delivered. */
  readonly cancel: boolean;
  readonly whyNot?: string;
  /**
   * With `whyNot: 'FLAG_NOT_GRANTED'` from the tool's rules (`approverFlags`): the flags this person
   * lacks. Absent when it is the tool's own feature flag.
   */
  readonly missingFlags?: readonly string[];
}

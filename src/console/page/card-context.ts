// What a card is to the page around it: what it needs (`CardContext`) and what it offers (`CardView`),
// shared by the one confirmation's card and a bundle's card.
import type { Api, Card, Decision } from './api.js';
import type { Action } from './decision-words.js';
import type { EditState } from './edit-form.js';
import type { Strings } from './i18n.js';

/** What every card needs from the page around it. */
export interface CardContext {
  readonly api: Api;
  readonly t: Strings;
  readonly base: string;
  readonly locale: string;
  /** The detail page's card is open, links nowhere and has no checkbox. */
  readonly detail: boolean;
  /** The detail page's edit form: what the person changed, and whether it was previewed. */
  readonly edit?: () => EditState;
  /** Called when the card's checkbox changes or its status does. */
  readonly onChange?: () => void;
  /**
   * An approval link's card: Confirm and Reject while pending, nothing else (the link cannot retry),
   * and none once a decision came back, unless it failed on the way (the link may be unspent).
   */
  readonly oneUse?: boolean;
}

export interface CardView {
  readonly element: HTMLElement;
  card: Card;
  /** Checked for "Confirm selected" (only pending cards can be). */
  readonly isSelected: boolean;
  setSelected(selected: boolean): void;
  /** Shows a newer version of the confirmation (a live update), keeping the outcome line. */
  update(card: Card): void;
  /** Shows a decision's outcome in words and the confirmation it left behind. */
  showDecision(decision: Decision, action: Action): void;
  /** Disables the buttons while a request for this card runs (the bulk actions use it too). */
  setBusy(busy: boolean): void;
}

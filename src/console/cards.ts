import { canonicalJson } from '../confirm/digest.js';
import type { Confirmation, ConfirmationsView, ConfirmationToolView } from '../confirm/types.js';

/**
 * A confirmation as the page shows it: the record, its tool's title (or name), the fields a person may
 * edit, and the exact canonical JSON whose digest they confirm.
 */
export type Card = Confirmation & {
  readonly title: string;
  readonly editable: string[];
  readonly canonicalJson: string;
};

/** Builds cards, asking the registry about each tool once per request. */
export class CardMaker {
  readonly #view: ConfirmationsView;
  readonly #tools = new Map<string, ConfirmationToolView | undefined>();

  constructor(view: ConfirmationsView) {
    this.#view = view;
  }

  card(confirmation: Confirmation): Card {
    const tool = this.#tool(confirmation.tool);
    return {
      ...confirmation,
      title: tool?.title ?? confirmation.tool,
      editable: tool === undefined ? [] : [...tool.editable],
      canonicalJson: canonicalText(confirmation.payload),
    };
  }

  #tool(name: string): ConfirmationToolView | undefined {
    if (!this.#tools.has(name)) this.#tools.set(name, this.#view.tool(name));
    return this.#tools.get(name);
  }
}

/** A stored payload is JSON; one that is not (a store edited by hand) is shown as JSON text still. */
function canonicalText(payload: unknown): string {
  try {
    return canonicalJson(payload);
  } catch {
    return JSON.stringify(payload) ?? 'null';
  }
}

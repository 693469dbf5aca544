// Whether the person's card shows a "Check" beside a destination: asked of the approvals console
// itself (its JSON card), so the bench counts what a person sees, never a second copy of the decision.
import type { ToolRegistry } from 'graded-tools';
import { type ApprovalsConsole, createApprovalsConsole } from 'graded-tools/console';
import type { BenchContext } from './rules.js';

/** The reviewer the bench signs in as: it only views cards, it decides nothing. */
const REVIEWER = { id: 'bench-reviewer' };

/** A console over one suite's registry that answers "does this card show a Check?". */
export class CardCheck {
  readonly #console: ApprovalsConsole;

  constructor(registry: ToolRegistry<BenchContext>) {
    this.#console = createApprovalsConsole({
      registry,
      authenticate: () => REVIEWER,
      // The bench sweeps nothing: no timer may outlive the replay.
      sweepIntervalMs: 0,
    });
  }

  /**
   * True when some destination line of confirmation `id`'s card is marked Check (an unvouched origin).
   * `withDestinations`: the call gave a destination, so the card must have origin lines; none readable
   * means the card's shape moved, and the bench stops rather than count "no Check".
   */
  async showsCheck(id: string, withDestinations: boolean): Promise<boolean> {
    const response = await this.#console.fetch(
      new Request(`http://localhost/api/confirmations/${encodeURIComponent(id)}`),
    );
    const body: unknown = await response.json();
    if (!response.ok) throw new Error(`the console did not show card ${id}: ${JSON.stringify(body)}`);
    const lines = originLines(body);
    if (withDestinations && lines.length === 0) throw new Error(`card ${id} shows no origin lines`);
    return lines.some((line) => (line as { unvouched?: unknown }).unvouched === true);
  }

  close(): void {
    this.#console.close();
  }
}

/** Read once, at the edge: `confirmation.originsText.lines` of the console's answer. */
function originLines(body: unknown): readonly unknown[] {
  const card = (body as { confirmation?: { originsText?: { lines?: unknown } } }).confirmation;
  const lines = card?.originsText?.lines;
  return Array.isArray(lines) ? lines : [];
}

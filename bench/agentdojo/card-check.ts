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

  /** True when some destination line of confirmation `id`'s card is marked Check (an unvouched origin). */
  async showsCheck(id: string): Promise<boolean> {
    const response = await this.#console.fetch(
      new Request(`http://localhost/api/confirmations/${encodeURIComponent(id)}`),
    );
    const body: unknown = await response.json();
    if (!response.ok) throw new Error(`the console did not show card ${id}: ${JSON.stringify(body)}`);
    return hasCheckedLine(body);
  }

  close(): void {
    this.#console.close();
  }
}

/** Read once, at the edge: `confirmation.originsText.lines[].unvouched` of the console's answer. */
function hasCheckedLine(body: unknown): boolean {
  const card = (body as { confirmation?: { originsText?: { lines?: unknown } } }).confirmation;
  const lines = card?.originsText?.lines;
  return Array.isArray(lines) && lines.some((line) => (line as { unvouched?: unknown }).unvouched === true);
}

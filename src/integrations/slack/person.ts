import { isRecord } from '../../util/is-record.js';

/** The approver a Slack user is, as the app's directory says. */
export interface SlackPerson {
  /** The id decisions are recorded under (the same as in the console). */
  readonly id: string;
  /** Shown on the message: "Approved by Li". */
  readonly name?: string;
  /** The approver's feature flags: the tool's gates and the rules' `approverFlags` are checked with them. */
  readonly flags?: Readonly<Record<string, boolean>>;
  /** The approver's scope; the confirmation's own by default. */
  readonly scope?: string;
}

/** The app's mapping from a Slack user id (`U0…`) to an approver, or `undefined` for nobody. */
export type PersonLookup = (
  slackUserId: string,
) => SlackPerson | undefined | Promise<SlackPerson | undefined>;

/** The most names remembered for messages; the oldest are forgotten first. */
const MAX_NAMES = 1_000;

/**
 * Who a Slack user is, asked of the app once per interaction and read once: anything but a person
 * with a non-empty string `id` — `undefined`, a throw, a rejection, a malformed answer — is nobody,
 * and nobody decides anything. The names of people seen are remembered (bounded) for the messages.
 */
export class People {
  readonly #lookup: PersonLookup;
  readonly #names = new Map<string, string>();

  constructor(lookup: PersonLookup) {
    this.#lookup = lookup;
  }

  async of(slackUserId: string): Promise<SlackPerson | undefined> {
    let found: unknown;
    try {
      found = await this.#lookup(slackUserId);
    } catch {
      return undefined;
    }
    const person = readPerson(found);
    if (person?.name !== undefined) {
      this.#names.delete(person.id);
      this.#names.set(person.id, person.name);
      if (this.#names.size > MAX_NAMES) this.#names.delete(this.#names.keys().next().value as string);
    }
    return person;
  }

  /** The name of a person seen here, else the id as recorded. */
  nameOf(id: string): string {
    return this.#names.get(id) ?? id;
  }
}

function readPerson(value: unknown): SlackPerson | undefined {
  try {
    if (!isRecord(value)) return undefined;
    const { id, name, flags, scope } = value;
    if (typeof id !== 'string' || id.trim() === '') return undefined;
    const granted: Record<string, boolean> = {};
    if (isRecord(flags))
      for (const [flag, on] of Object.entries(flags)) if (on === true) granted[flag] = true;
    return {
      id,
      ...(typeof name === 'string' && name.trim() !== '' ? { name } : {}),
      ...(isRecord(flags) ? { flags: granted } : {}),
      ...(typeof scope === 'string' ? { scope } : {}),
    };
  } catch {
    // A proxy or getter that throws: nobody.
    return undefined;
  }
}

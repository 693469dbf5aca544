import { isRecord } from '../util/is-record.js';

/** An approver as a chat integration reads the app's answer (Slack's and Teams' person types are this shape). */
export interface ChatPerson {
  readonly id: string;
  readonly name?: string;
  readonly flags?: Readonly<Record<string, boolean>>;
  readonly scope?: string;
}

/** The most names remembered for cards and messages; the oldest are forgotten first. */
const MAX_NAMES = 1_000;

/**
 * Who a chat user (Slack, Teams) is, asked of the app once per action and read once: anything but a
 * person with a non-empty string `id` — `undefined`, a throw, a rejection, a malformed answer — is
 * nobody, and nobody decides anything. The names of people seen are remembered (bounded) for the cards.
 */
export class ChatPeople {
  readonly #lookup: (userId: string) => unknown;
  readonly #names = new Map<string, string>();

  constructor(lookup: (userId: string) => unknown) {
    this.#lookup = lookup;
  }

  async of(userId: string | undefined): Promise<ChatPerson | undefined> {
    if (userId === undefined) return undefined;
    let found: unknown;
    try {
      found = await this.#lookup(userId);
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

function readPerson(value: unknown): ChatPerson | undefined {
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

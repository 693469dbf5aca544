import { isRecord } from '../../util/is-record.js';

/** The approver a Teams user is, as the app's directory says. */
export interface TeamsPerson {
  /** The id decisions are recorded under (the same as in the console). */
  readonly id: string;
  /** Shown on the card: "Approved by Li". */
  readonly name?: string;
  /** The approver's feature flags: the tool's gates and the rules' `approverFlags` are checked with them. */
  readonly flags?: Readonly<Record<string, boolean>>;
  /** The approver's scope; the confirmation's own by default. */
  readonly scope?: string;
}

/**
 * The app's mapping from a Teams user — their Microsoft Entra object id (`from.aadObjectId`, a GUID)
 * — to an approver, or `undefined` for nobody.
 */
export type TeamsPersonLookup = (
  entraObjectId: string,
) => TeamsPerson | undefined | Promise<TeamsPerson | undefined>;

/** The most names remembered for cards; the oldest are forgotten first. */
const MAX_NAMES = 1_000;

/**
 * Who a Teams user is, asked of the app once per action and read once: anything but a person with a
 * non-empty string `id` — `undefined`, a throw, a rejection, a malformed answer — is nobody, and
 * nobody decides anything. The names of people seen are remembered (bounded) for the cards.
 */
export class TeamsPeople {
  readonly #lookup: TeamsPersonLookup;
  readonly #names = new Map<string, string>();

  constructor(lookup: TeamsPersonLookup) {
    this.#lookup = lookup;
  }

  async of(entraObjectId: string | undefined): Promise<TeamsPerson | undefined> {
    if (entraObjectId === undefined) return undefined;
    let found: unknown;
    try {
      found = await this.#lookup(entraObjectId);
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

function readPerson(value: unknown): TeamsPerson | undefined {
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
    return undefined;
  }
}

/**
 * Where a destination's value was found within an agent run:
 * - `request`: in the words of the person's request (`beginRun({ request })`);
 * - `trusted`: among the values the app vouches for (`beginRun({ trusted })`);
 * - `tool`: only in what the agent read, from the tool named by `tool` (its internal name);
 * - `none`: nowhere the agent read or was told: the model made it up.
 */
export interface Origin {
  readonly from: 'request' | 'trusted' | 'tool' | 'none';
  /** The tool whose result held the value (`from: 'tool'` only). */
  readonly tool?: string;
  /**
   * The named trusted list that holds the value (`from: 'trusted'` only): `beginRun({ trusted: { payees:
   * […] } })` gives `list: 'payees'`; a plain list is named `trusted`. A rule can require a payee.
   */
  readonly list?: string;
}

/** One value of a destination field, as the call sent it, and where it came from. */
export interface ValueOrigin {
  /** The value as a person reads it (an address, a host, an IBAN), at most 200 characters. */
  readonly value: string;
  /** Where this value was found, as `Origin` says; `[{ from: 'none' }]` for a value that cannot be judged. */
  readonly origins: readonly Origin[];
}

/** Per destination field, each of its values with its own origins, in the order the input holds them. */
export type ValueOrigins = Readonly<Record<string, readonly ValueOrigin[]>>;

/**
 * Per destination field (as the tool's `destinations` names it), where its value came from. A value
 * found in the request or among trusted values lists those places only; a value the person or app did
 * not vouch for lists each tool it was read from (in reading order), or `none`. A field with several
 * values (a list of recipients) lists every place of every value, once each.
 */
export type Origins = Readonly<Record<string, readonly Origin[]>>;

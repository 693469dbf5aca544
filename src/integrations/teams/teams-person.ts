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

export { ChatPeople as TeamsPeople } from '../chat-people.js';

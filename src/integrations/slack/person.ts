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

export { ChatPeople as People } from '../chat-people.js';

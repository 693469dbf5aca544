// graded-tools/slack: approvals in Slack with buttons. `slack.notifier` posts each confirmation as a
// Block Kit card; `slack.fetch` takes the clicks on Slack's interactivity Request URL and decides
// through the registry's one check list.

export type { PersonLookup, SlackPerson } from './person.js';
export type { SignatureVerdict } from './signature.js';
export { verifySlackSignature } from './signature.js';
export type { SlackApprovals, SlackApprovalsOptions } from './slack-approvals.js';
export { slackApprovals } from './slack-approvals.js';
export type { SlackRegistry } from './slack-registry.js';

// graded-tools/teams: approvals in Microsoft Teams with Adaptive Cards. `teams.notifier` posts each
// confirmation as a card; `teams.fetch` is the bot's messaging endpoint, which verifies every activity
// and decides through the registry's one check list.

export type { TeamsApprovals, TeamsApprovalsOptions } from './teams-approvals.js';
export { teamsApprovals } from './teams-approvals.js';
export type { TeamsPerson, TeamsPersonLookup } from './teams-person.js';
export type { TeamsRegistry } from './teams-registry.js';

// graded-tools/cedar: Cedar policies as rules, so a security team's Cedar (as for AWS AgentCore)
// decides here too. Loads @cedar-policy/cedar-wasm, an optional peer.

export type { CedarEntity, CedarRulesOptions } from './cedar-rules.js';
export { cedarRules } from './cedar-rules.js';

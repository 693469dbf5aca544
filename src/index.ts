// The public API, by name. Adding a symbol here is an API decision; test/index.test.ts snapshots the list.
// A store's author finds its contract in `graded-tools/store` (src/stores/index.ts) and its tests in
// `graded-tools/testing`.

export type { AuditDetail, AuditDraft, AuditEntry, AuditKind } from './audit/audit-entry.js';
export type { AuditExportRange, AuditLog, AuditVerifyOptions } from './audit/audit-log.js';
export { AUDIT_SEQUENCE_BOUND_MS } from './audit/audit-log.js';
export type { AuditKey, AuditKeyObject, SignedAuditHead } from './audit/signed-head.js';
export type {
  ApprovalProblem,
  ApprovalProblemReason,
  ApprovalsVerification,
} from './audit/verify-approvals.js';
export type { AuditBreak, AuditHead, AuditVerification } from './audit/verify-chain.js';
export type { BundleStatus, BundleView } from './confirm/bundles/bundle-view.js';
export type { BundleDecided, BundleDecisionResult } from './confirm/bundles/decide-bundle.js';
export type {
  BundleProposed,
  BundleRefused,
  BundleStep,
  ProposeBundleResult,
} from './confirm/bundles/propose-bundle.js';
export { payloadDigest } from './confirm/digest.js';
export type {
  ApprovalLinks,
  IssuedLink,
  IssueLinkOptions,
  IssueLinkResult,
  LinkApproverInput,
  LinkFailure,
  LinkRefusalReason,
  OpenedLink,
  OpenLinkResult,
} from './confirm/links/approval-links.js';
export type { RegistryPasskeys } from './confirm/passkeys/registry-passkeys.js';
export { describeDecision } from './confirm/reading/describe-decision.js';
export { describeEffect } from './confirm/reading/effect-text.js';
export type {
  CancelOptions,
  CanDecideOptions,
  ConfirmationFailure,
  ConfirmationFilter,
  ConfirmationListResult,
  ConfirmationNotice,
  ConfirmationPruneResult,
  ConfirmationResult,
  ConfirmationSweepResult,
  ConfirmationsView,
  ConfirmationToolView,
  ConfirmOptions,
  ConfirmResult,
  ConfirmSuccess,
  EditCheckResult,
  MarkDeliveredOptions,
  PruneOptions,
  RecoverStaleOptions,
  RejectOptions,
  SweepOptions,
  SweepResult,
  WaitForOptions,
} from './confirm/types.js';
export type {
  Confirmation,
  ConfirmationApproval,
  ConfirmationBundle,
  ConfirmationHistoryEntry,
  ConfirmationIdempotency,
  ConfirmationLink,
  ConfirmationStatus,
  CountedLimit,
  Origin,
  Origins,
  ValueOrigin,
  ValueOrigins,
} from './confirmation.js';
export { CONFIRMATION_STATUSES } from './confirmation.js';
export { getDefaultRegistry } from './default-registry.js';
export type { DefinitionErrorCode } from './errors/tool-definition-error.js';
export { ToolDefinitionError } from './errors/tool-definition-error.js';
export type {
  AuditEvent,
  ConfirmationAction,
  ConfirmationEvent,
  DefinitionWarningEvent,
  EgressEvent,
  EventListener,
  InvokeEvent,
  InvokeOutcome,
  LinkEvent,
  NotifyEvent,
  RegistryEvent,
  RuleEvent,
} from './events.js';
export type { ArgumentLimits } from './invoke/arguments.js';
export type { LimitState, RuleCheck } from './invoke/check-call.js';
export type { JsonSchema } from './json-schema.js';
export type { Locale, MessageCatalog, MessageParams } from './messages/index.js';
export { formatMessage } from './messages/index.js';
export type {
  ApprovalNotice,
  EscalationStep,
  NoticeKind,
  Notifier,
  NotifyAttempt,
  NotifyOptions,
} from './notice.js';
export type {
  PasskeyAssertion,
  PasskeyChallengeRequest,
  PasskeyChallengeResult,
  PasskeyCreationOptionsJSON,
  PasskeyCredentialInfo,
  PasskeyFailure,
  PasskeyFailureCode,
  PasskeyListResult,
  PasskeyProof,
  PasskeyRegisterRequest,
  PasskeyRegisterResult,
  PasskeyRegistrationOptionsRequest,
  PasskeyRegistrationOptionsResult,
  PasskeyRegistrationResponse,
  PasskeyRemoveRequest,
  PasskeyRemoveResult,
  PasskeyRequestOptionsJSON,
  PasskeyTransport,
} from './passkeys/passkey-types.js';
export type { PasskeyCheck, PasskeyVerifier } from './passkeys/passkey-verifier.js';
export type { PlanRunContext } from './plan/run-plan.js';
export { runPlan } from './plan/run-plan.js';
export type { Plan, PlanResult, PlanState, PlanStep, StepRecord, StepStatus } from './plan/types.js';
export { definePlan } from './plan/types.js';
export type { PlanProblem } from './plan/validate-plan.js';
export { validatePlan } from './plan/validate-plan.js';
export type { Access, AccessReport, AccessRow } from './policy/access-report.js';
export { buildAccessReport, formatAccessReport } from './policy/access-report.js';
export type { GateContext, GatedTool, Refusal } from './policy/gates.js';
export { isAutonomous, isFlagGranted, isModelCallable, refusalFor } from './policy/gates.js';
export type { RuleReport } from './policy/rules/evaluate-rules.js';
export {
  fromWireName,
  isLegalWireName,
  isValidToolName,
  MAX_WIRE_NAME_LENGTH,
  TOOL_NAME_PATTERN,
  toWireName,
  WIRE_NAME_PATTERN,
} from './policy/wire-name.js';
export type { InvokeContext, ProposeOptions, RegisterOptions, RegistryOptions } from './registry.js';
export { ToolRegistry } from './registry.js';
export type { CheckContext } from './registry-options.js';
export type {
  ConfirmRequired,
  ErrorCode,
  InvokeResult,
  ProposeResult,
  ReadOnlyResult,
  ToolFailure,
  ToolSuccess,
  ValidationIssue,
} from './result.js';
export type {
  ApprovalRequirement,
  CallLimit,
  LimitBy,
  LimitCount,
  LimitKey,
  LimitWindow,
  Rule,
  RuleCall,
  RuleCondition,
  RuleInfo,
  SumLimit,
} from './rule.js';
export type { RunOptions, RunStarted, RunsOptions } from './runs/runs.js';
export type { MemoryStoreOptions } from './stores/memory/memory-store.js';
export { createMemoryStore } from './stores/memory/memory-store.js';
export type {
  Approval,
  CallerKind,
  DescribedStandardSchema,
  InferToolInput,
  InputSchema,
  RunContext,
  RunnableToolDefinition,
  SendToolDefinition,
  SideEffect,
  ToolDefinition,
} from './tool.js';
export { defineTool, isSendTool, SIDE_EFFECTS } from './tool.js';
export type { ListFilter, ToolInfo } from './tool-info.js';
export type { FunctionSchema } from './tools/function-schema.js';
export { bundleDigest } from './util/bundle-digest.js';
export { canonicalJson } from './util/canonical-json.js';
export { createAjvValidator } from './validation/ajv-validator.js';
export { createCfworkerValidator } from './validation/cfworker-validator.js';
export type { CompiledValidator, JsonSchemaValidator, ValidationOutcome } from './validation/validator.js';

import { passkeyRefusalDraft, ruleDraft } from '../../audit/audit-drafts.js';
import type { Confirmation } from '../../confirmation.js';
import type { PasskeyProof } from '../../passkeys/passkey-types.js';
import { approverGates, readFlags } from '../../policy/call-context.js';
import { refusalFor } from '../../policy/gates.js';
import type { ApprovalLinkRecord, LinkApprover, PayloadEdit } from '../../stores/store.js';
import { snapshotJson } from '../../util/canonical-json.js';
import { confirmationDigest } from '../digest.js';
import {
  alreadyDecided,
  expireOne,
  type Fail,
  type FlowContext,
  type SendToolHandle,
} from '../flow-context.js';
import type { PasskeyAttempt } from '../passkeys/passkey-attempt.js';
import type { AuthorizeDecision, ConfirmationFailure } from '../types.js';
import { type EditJudgment, judgeEdit } from './edit-rules.js';
import { fourEyesRefusal } from './four-eyes.js';
import { checkPayloadEdit } from './payload-edit.js';

/**
 * What is being decided. A person's four decisions, and three askings that decide (and write)
 * nothing: whether a link may be made for someone (`issue-link`: they could use it), whether a link
 * opens its confirmation (`open-link`: a page view, a mail scanner's prefetch), and an edit previewed.
 */
export type DecisionKind =
  | 'confirm'
  | 'retry'
  | 'reject'
  | 'markDelivered'
  /** A held send taken back in its undo window (`registry.cancel`). */
  | 'cancel'
  | 'issue-link'
  | 'open-link'
  | 'edit-preview';

/** One decision, as the check list reads it: every value already read at the edge. */
export interface DecisionToCheck {
  readonly kind: DecisionKind;
  /** The confirmation as the store holds it now. */
  readonly record: Confirmation;
  /** Who decides: their id, and for a confirm or retry their flags and scope. `undefined`: nobody yet. */
  readonly person: LinkApprover | undefined;
  /** The link the decision is made through: its token's hash, and the link stored under it, if any. */
  readonly link?: LinkToCheck | undefined;
  /** The digest the person was shown. */
  readonly digest?: string | undefined;
  /** The person's edit of the payload, as given. */
  readonly proposed?: { readonly value: unknown } | undefined;
  readonly authorize?: AuthorizeDecision | undefined;
  readonly signal?: AbortSignal | undefined;
  readonly now: number;
  readonly fail: Fail;
  /** Only asking whether it would pass (`confirmations.canDecide`): an overdue one is not marked. */
  readonly dry?: boolean | undefined;
  /**
   * Decided as one bundle (`confirmBundle`): the bundle digest the person was shown, and the one
   * recomputed now from every step's stored digest, in order.
   */
  readonly bundle?: { readonly shown: string | undefined; readonly current: string } | undefined;
  /** The approver's passkey assertion, for a confirmation that `requires.passkey` (proved once per decision). */
  readonly passkey?: PasskeyAttempt | undefined;
}

/** What a decision that passed every check may do: the tool to deliver with, the payload, the edit. */
export interface Cleared {
  readonly ok: true;
  /** The send tool as registered now (a confirm, retry, link or edit preview). */
  readonly tool: SendToolHandle | undefined;
  /** A fresh copy of exactly what was digested (a confirm, retry, link or edit preview). */
  readonly payload: unknown;
  /** The person's edit, checked against the tool's `editable` fields and `payloadSchema`. */
  readonly edit: PayloadEdit | undefined;
  /** What the tool's rules ask of the edited call: a stricter requirement, limits to count. */
  readonly judged: Extract<EditJudgment, { ok: true }> | undefined;
  /** The passkey assertion that proved this decision, for its audit entry. */
  readonly passkey: PasskeyProof | undefined;
}

/** A link as the check list reads it: looked up by the hash of the token given. */
export interface LinkToCheck {
  readonly tokenHash: string;
  readonly found: ApprovalLinkRecord | undefined;
}

type Checked = ConfirmationFailure | undefined;

/** Where the steps keep what they found for the ones after them. */
interface Found {
  tool: SendToolHandle | undefined;
  payload: unknown;
  edit: PayloadEdit | undefined;
  judged: Extract<EditJudgment, { ok: true }> | undefined;
  passkey: PasskeyProof | undefined;
}

type Check = (ctx: FlowContext, d: DecisionToCheck, found: Found) => Checked | Promise<Checked>;

const PERSON_DECIDES: ReadonlySet<DecisionKind> = new Set([
  'confirm',
  'retry',
  'reject',
  'markDelivered',
  'cancel',
]);
/** The kinds that end in a delivery: the tool and its gates are checked for them. */
const DELIVERS: ReadonlySet<DecisionKind> = new Set(['confirm', 'retry', 'issue-link']);
/** The kinds that show or deliver the payload: its digest is checked for them. */
const READS_PAYLOAD: ReadonlySet<DecisionKind> = new Set([...DELIVERS, 'open-link', 'edit-preview']);

/**
 * **The check list**: every way a person decides — `confirm`, `retry`, `reject`, `markDelivered`, `cancel`, the
 * console's buttons and bulk decisions, one-time links — is checked here, in this order, and only
 * here. Nothing is claimed, spent or written before it passes (but for marking an overdue one
 * expired); the status and expiry, which can change meanwhile, are decided again by the claim's own
 * conditional write, which also spends a link.
 *
 * 1. the link: this confirmation's, unused, unexpired, made for this payload
 * 2. the caller's `authorize`, once (before anything about the record is told to who may not see it)
 *    — a cancel by a person who approved sending it is not asked; anyone else's needs it
 * 3. open: the status (and expiry) the decision starts from
 * 3b. a bundle's step: decided with its bundle (`confirmBundle`), whose digest — the one shown, the one
 *     recomputed from every step now — is the stored one
 * 4. four eyes: not the person who asked
 * 4b. what the tool's rules asked: the approver holds `approverFlags`, and approves a payload once
 * 5. the payload: its digest recomputed is the stored one and the one the person was shown
 * 6. the tool as registered now, and its gates with the person's flags and scope
 * 7. the person's edit, against the tool's `editable` fields and `payloadSchema`
 * 7b. the edited call, against the tool's rules: a deny refuses it, and the approver holds the flags
 *     an approvals rule now asks
 * 8. the passkey, when the confirmation (or the edit) requires one: an assertion made for this very
 *    decision — this confirmation or bundle, this digest, this approver — by one of their passkeys,
 *    its single-use challenge taken now and its counter moved forward. A link cannot carry one.
 * 9. not aborted
 */
export async function checkDecision(
  ctx: FlowContext,
  d: DecisionToCheck,
): Promise<Cleared | ConfirmationFailure> {
  const found: Found = {
    tool: undefined,
    payload: undefined,
    edit: undefined,
    judged: undefined,
    passkey: undefined,
  };
  for (const check of CHECK_LIST) {
    const refused = await check(ctx, d, found);
    if (refused !== undefined) return refused;
  }
  return { ok: true, ...found };
}

const linkIsLive: Check = (_ctx, d) => {
  if (d.link === undefined) return undefined;
  const { found } = d.link;
  const refused = (reason: 'unknown' | 'used' | 'expired') =>
    ({ ...d.fail('LINK_REFUSED', { detail: reason }), reason }) as ConfirmationFailure;
  // A link for another confirmation is told apart from no link at all by nothing.
  if (found === undefined || found.confirmationId !== d.record.id) return refused('unknown');
  if (found.usedAt !== undefined) return refused('used');
  if (found.expiresAt <= d.now) return refused('expired');
  if (found.digest !== d.record.digest) return d.fail('PAYLOAD_CHANGED', {}, d.record);
  return undefined;
};

/**
 * Already decided — and through a link, by that very link? The record and the link are read by two
 * statements, so the link may have been read unused a moment before the decision that spent it
 * committed (with the record read after): read the link again before saying which.
 */
async function decidedMeanwhile(ctx: FlowContext, d: DecisionToCheck): Promise<ConfirmationFailure> {
  if (d.link !== undefined && d.link.found?.usedAt === undefined) {
    const again = await ctx.store.findLink?.(d.link.tokenHash).catch(() => undefined);
    if (again?.usedAt !== undefined)
      return { ...d.fail('LINK_REFUSED', { detail: 'used' }), reason: 'used' } as ConfirmationFailure;
  }
  return alreadyDecided(d.fail, d.record);
}

const isOpen: Check = (ctx, d) => {
  const { record, fail, now } = d;
  const decided = () => decidedMeanwhile(ctx, d);
  if (d.kind === 'retry' || d.kind === 'markDelivered')
    return record.status === 'unknown' || record.status === 'failed' ? undefined : decided();
  if (d.kind === 'cancel') return record.status === 'scheduled' ? undefined : decided();
  if (record.status === 'expired') return fail('EXPIRED', {}, record);
  if (record.status !== 'pending') return decided();
  // No is never dangerous: a reject is taken even past the expiry. Only a decision marks it expired.
  if (d.kind !== 'reject' && Date.parse(record.expiresAt) <= now)
    return PERSON_DECIDES.has(d.kind) && d.dry !== true
      ? expireOne(ctx, record, now, fail)
      : fail('EXPIRED', {}, record);
  return undefined;
};

/** A bundle's step is approved with its bundle, as the person saw it whole; never on its own. */
const decidedWhole: Check = (_ctx, d) => {
  const { bundle } = d.record;
  if (bundle === undefined || (d.kind !== 'confirm' && d.kind !== 'issue-link')) return undefined;
  if (d.bundle === undefined) {
    const detail = `this is step ${bundle.index + 1} of ${bundle.size} of bundle ${bundle.id}: decide the bundle whole with confirmBundle`;
    return d.fail('INVALID_OPTION', { detail }, d.record);
  }
  const { shown, current } = d.bundle;
  if (current !== bundle.digest || (shown !== undefined && shown !== bundle.digest))
    return d.fail('PAYLOAD_CHANGED', {}, d.record);
  return undefined;
};

const notTheAsker: Check = (ctx, d) => {
  if (!ctx.requireDifferentApprover || d.person === undefined) return undefined;
  if (d.kind === 'reject' || d.kind === 'cancel' || d.kind === 'open-link' || d.kind === 'edit-preview')
    return undefined;
  const refusal = fourEyesRefusal(d.record, d.person.id);
  if (refusal === undefined) return undefined;
  return d.fail('SAME_PERSON', refusal === 'no-actor' ? { detail: 'no-actor' } : {}, d.record);
};

/** What the tool's rules asked of approvers: each holds the flags, and approves one payload once. */
const asRulesAsk: Check = (_ctx, d) => {
  const { record, person } = d;
  const requires = record.requires;
  if (requires === undefined || person === undefined || !DELIVERS.has(d.kind)) return undefined;
  const held = readFlags(person.flags).flags;
  const missing = requires.approverFlags.filter((flag) => held[flag] !== true);
  if (missing.length > 0)
    return d.fail('FLAG_NOT_GRANTED', { tool: record.tool, detail: missing.join(', ') }, record);
  const again = (record.approvals ?? []).some(
    ({ by, digest }) => by === person.id && digest === record.digest,
  );
  return again && d.kind !== 'retry' ? d.fail('ALREADY_APPROVED', {}, record) : undefined;
};

/**
 * The payload, if the digest recomputed from the record's tool and payload is the stored one and the
 * one the person was shown: an edited row — payload or tool — is caught even without `digest`.
 */
const payloadIsAsShown: Check = (_ctx, d, found) => {
  if (!READS_PAYLOAD.has(d.kind)) return undefined;
  const { record, fail } = d;
  const snapshot = snapshotJson(record.payload);
  const digest =
    snapshot.ok && typeof record.tool === 'string' ? confirmationDigest(record.tool, snapshot.value) : '';
  if (!snapshot.ok || digest !== record.digest) return fail('PAYLOAD_CHANGED', { detail: 'stored' }, record);
  if (d.digest !== undefined && d.digest !== digest) return fail('PAYLOAD_CHANGED', {}, record);
  // A fresh copy (in its own key order): a `deliver` that changes its argument changes nothing stored.
  found.payload = JSON.parse(JSON.stringify(snapshot.value));
  return undefined;
};

const toolAndGates: Check = (ctx, d, found) => {
  if (!DELIVERS.has(d.kind) && d.kind !== 'edit-preview') return undefined;
  const { record, fail } = d;
  const tool = ctx.sendTool(record.tool);
  if (tool === undefined) return fail('UNKNOWN_TOOL', { tool: record.tool }, record);
  found.tool = tool;
  if (d.person === undefined || d.kind === 'edit-preview') return undefined;
  const gates = approverGates(
    { flags: readFlags(d.person.flags).flags, scope: d.person.scope },
    record.scope,
  );
  const refusal = refusalFor(tool.info, gates, 'person');
  return refusal === undefined ? undefined : fail(refusal, { tool: record.tool, scope: gates.scope }, record);
};

/**
 * The caller's `authorize`, asked once. A cancel is the undo of one's own approval: a person who
 * approved sending it may cancel without asking; anyone else only if `authorize` allows.
 */
const authorized: Check = async (_ctx, d) => {
  if (d.kind === 'cancel' && d.person !== undefined && approvedSending(d.record, d.person.id))
    return undefined;
  if (d.kind === 'cancel' && d.authorize === undefined) return d.fail('FORBIDDEN', {}, d.record);
  if (d.authorize === undefined || d.person === undefined || !PERSON_DECIDES.has(d.kind)) return undefined;
  let allowed = false;
  try {
    allowed = (await d.authorize(d.record, d.person)) === true;
  } catch {
    // A throwing `authorize` denies.
  }
  return allowed ? undefined : d.fail('FORBIDDEN', {}, d.record);
};

const editFollowsRules: Check = async (_ctx, d, found) => {
  if (d.proposed === undefined || found.tool === undefined) return undefined;
  const { record, fail } = d;
  const checked = await checkPayloadEdit({
    tool: record.tool,
    original: found.payload,
    fromDigest: record.digest,
    proposed: d.proposed.value,
    rules: found.tool.edit,
  });
  if (checked.ok) {
    found.edit = checked.edit;
    return undefined;
  }
  const failure = fail(checked.code, { tool: record.tool, detail: checked.detail }, record);
  return 'issues' in checked ? { ...failure, issues: checked.issues } : failure;
};

/**
 * The edited call, judged by the tool's rules as the call the asker would have made with it: refused
 * as `RULE_DENIED` when a rule denies it (logged, as a refusal at invoke is, unless only previewed);
 * refused as `FLAG_NOT_GRANTED` when the approver lacks a flag it now needs.
 */
const editPassesToolRules: Check = async (ctx, d, found) => {
  const rules = found.tool?.edit?.rules;
  if (found.edit === undefined || rules === undefined || rules.length === 0) return undefined;
  const { record, fail, person } = d;
  const judged = judgeEdit({ rules, record, edit: found.edit, now: d.now });
  if (!judged.ok) {
    const { rule, reason, failed } = judged;
    if (d.kind !== 'edit-preview' && d.dry !== true)
      await ctx.audit?.record(
        ruleDraft({
          tool: record.tool,
          actor: person?.id,
          caller: 'person',
          rule,
          decision: failed ? 'error' : 'deny',
          reason,
          at: d.now,
        }),
      );
    return { ...fail('RULE_DENIED', { tool: record.tool, detail: reason }, record), rule };
  }
  found.judged = judged;
  const missing =
    person === undefined
      ? []
      : (judged.requires?.approverFlags ?? []).filter((flag) => readFlags(person.flags).flags[flag] !== true);
  if (missing.length > 0)
    return fail('FLAG_NOT_GRANTED', { tool: record.tool, detail: missing.join(', ') }, record);
  return undefined;
};

/** Whether `by` approved sending it: the claim (held or not) or one approval of a quorum. */
function approvedSending(record: Confirmation, by: string): boolean {
  const claimed = record.history.some(
    (entry) => entry.by === by && (entry.status === 'scheduled' || entry.status === 'delivering'),
  );
  return claimed || (record.approvals ?? []).some((approval) => approval.by === by);
}

/**
 * A passkey, when asked for: proved last, after every other check passed, since proving spends the
 * challenge; what it proves is this decision as recomputed here, never what the caller says it is.
 */
const passkeyProves: Check = async (ctx, d, found) => {
  const { record, fail, person } = d;
  // A retry re-delivers what a passkey already approved (its digest cannot change): it asks none.
  if (!DELIVERS.has(d.kind) || d.kind === 'retry' || person === undefined) return undefined;
  if (record.requires?.passkey !== true && found.judged?.requires?.passkey !== true) return undefined;
  const refuse = async (code: 'PASSKEY_REQUIRED' | 'PASSKEY_INVALID', detail: string) => {
    if (d.dry !== true && d.kind !== 'issue-link')
      await ctx.audit?.record(passkeyRefusalDraft({ record, by: person.id, code, detail, at: d.now }));
    return fail(code, { tool: record.tool, detail }, record);
  };
  if (ctx.passkeys === undefined) return refuse('PASSKEY_REQUIRED', 'not-configured');
  // A link, a chat button, an email: none can carry an assertion.
  if (d.link !== undefined || d.kind === 'issue-link' || d.passkey === undefined)
    return refuse('PASSKEY_REQUIRED', 'no-assertion');
  const { bundle } = record;
  const decision =
    bundle !== undefined && d.bundle !== undefined
      ? { kind: 'bundle' as const, id: bundle.id, digest: bundle.digest, approver: person.id }
      : // An edit is approved as edited: the passkey must have signed the payload that will be sent.
        {
          kind: 'confirmation' as const,
          id: record.id,
          digest: found.edit?.digest ?? record.digest,
          approver: person.id,
        };
  const proved = await d.passkey.prove(ctx, decision);
  if (!proved.ok) return refuse(proved.code, proved.detail);
  found.passkey = proved.proof;
  return undefined;
};

const notAborted: Check = (_ctx, d) => (d.signal?.aborted ? d.fail('ABORTED', {}, d.record) : undefined);

const CHECK_LIST: readonly Check[] = [
  linkIsLive,
  authorized,
  isOpen,
  decidedWhole,
  notTheAsker,
  asRulesAsk,
  payloadIsAsShown,
  toolAndGates,
  editFollowsRules,
  editPassesToolRules,
  passkeyProves,
  notAborted,
];

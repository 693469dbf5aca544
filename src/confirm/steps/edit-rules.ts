import type { Confirmation, CountedLimit, Origin, Origins } from '../../confirmation.js';
import { countedLimit } from '../../invoke/apply-rules.js';
import type { CompiledRule } from '../../policy/rules/compile-rules.js';
import { evaluateRules, type LimitUse } from '../../policy/rules/evaluate-rules.js';
import { ruleCall } from '../../policy/rules/rule-call.js';
import type { ApprovalRequirement } from '../../rule.js';
import type { PayloadEdit } from '../../stores/store.js';
import { readDestinationPath } from '../../util/destination-path.js';
import { isRecord } from '../../util/is-record.js';
import { editedFields } from '../reading/edited-fields.js';

/** What a tool's rules say about a person's edit, judged as the call the asker would have made with it. */
export type EditJudgment =
  | {
      readonly ok: false;
      readonly rule: string;
      readonly reason: string;
      /** The rule could not be evaluated (it denies, failing closed). */
      readonly failed: boolean;
    }
  | {
      readonly ok: true;
      /** What approvers must be now, when the edit asks more than the record does (else `undefined`). */
      readonly requires: ApprovalRequirement | undefined;
      /** What the edit adds to limits: counted before the claim, in the window of `now`. */
      readonly spend: readonly LimitUse[];
      /** What the edit takes off limits: given back after the claim, in the window the call was counted in. */
      readonly giveBack: readonly LimitUse[];
      /**
       * What the edited call counts on delivery (`count: 'delivered'`), stored with the edit so that a
       * later give-back is exact; `undefined` when the edit changes none of it.
       */
      readonly counted: readonly CountedLimit[] | undefined;
    };

/**
 * Judges `edit` of `record` by the tool's rules. Rules are written against the tool's input, an edit
 * changes the payload: they read the input as asked with every edited payload field laid over the
 * input field of the same name (`register` refuses an editable field the input has not got). A deny
 * refuses the edit; an approvals rule can only add to what the record asks (an edit never loosens it);
 * a limit counts the difference between the edited call and the call as it stood.
 */
export function judgeEdit(asked: {
  readonly rules: readonly CompiledRule[];
  readonly record: Confirmation;
  readonly edit: PayloadEdit;
  readonly now: number;
}): EditJudgment {
  const { rules, record, edit, now } = asked;
  const before = editedFields(record);
  const fields = [...new Set([...before, ...edit.fields])];
  // The asker's flags and context are not stored: rules on an edit see none. A destination the person
  // edited is theirs: named by a person, as in a request.
  const facts = {
    actor: record.actor,
    scope: record.scope,
    flags: {},
    tool: record.tool,
    context: undefined,
  };
  const origins = originsAfter(record, edit.fields);
  const after = evaluateRules(
    rules,
    ruleCall({ ...facts, origins, input: inputFor(record, edit.payload, fields) }, now),
  );
  if (after.denied !== undefined) return { ok: false, ...after.denied };
  const created = Date.parse(record.createdAt);
  const was = evaluateRules(
    rules,
    ruleCall(
      { ...facts, origins: record.origins ?? {}, input: inputFor(record, record.payload, before) },
      created,
    ),
  );
  const spend: LimitUse[] = [];
  const giveBack: LimitUse[] = [];
  // The same counter is the same rule and key: an edit that changes a `by` field (another customer)
  // moves the whole amount from the old counter to the new one.
  const same = (a: LimitUse, b: LimitUse) => a.rule === b.rule && a.key === b.key;
  for (const use of after.limits) {
    const prior = was.limits.find((counted) => same(counted, use));
    const difference = use.amount - (prior?.amount ?? 0);
    if (difference > 0) spend.push({ ...use, amount: difference });
    else if (difference < 0 && prior !== undefined) giveBack.push({ ...prior, amount: -difference });
  }
  for (const prior of was.limits) if (!after.limits.some((use) => same(use, prior))) giveBack.push(prior);
  return {
    ok: true,
    requires: tightened(record.requires, after.requirement),
    spend,
    giveBack,
    counted: countedAfter(record.counted ?? [], spend, giveBack),
  };
}

/**
 * What a confirmation counts on delivery after an edit: what it held, less what the edit gives back,
 * plus what it spends (in the window of the edit). `undefined` when the edit moves none of it.
 */
function countedAfter(
  held: readonly CountedLimit[],
  spend: readonly LimitUse[],
  giveBack: readonly LimitUse[],
): readonly CountedLimit[] | undefined {
  const delivered = (use: LimitUse) => use.limit.count === 'delivered';
  if (!spend.some(delivered) && !giveBack.some(delivered)) return undefined;
  const counted = held.map((entry) => ({ ...entry }));
  for (const use of giveBack.filter(delivered)) {
    let left = use.amount;
    for (const entry of counted) {
      if (left <= 0 || entry.key !== use.key || entry.windowStart !== use.windowStart) continue;
      const taken = Math.min(entry.amount, left);
      entry.amount -= taken;
      left -= taken;
    }
  }
  return [...counted.filter((entry) => entry.amount > 0), ...spend.filter(delivered).map(countedLimit)];
}

/** The input the rules read for `payload`: the asked input with `fields` taken from the payload. */
function inputFor(
  record: Confirmation,
  payload: unknown,
  fields: readonly string[],
): Record<string, unknown> {
  const input: Record<string, unknown> = isRecord(record.input) ? { ...record.input } : {};
  if (!isRecord(payload)) return input;
  for (const field of fields) {
    if (Object.hasOwn(payload, field)) input[field] = payload[field];
    else delete input[field];
  }
  return input;
}

/** The record's origins, with each destination a person edited (now or before) named by a person. */
function originsAfter(record: Confirmation, edited: readonly string[]): Origins {
  const origins = record.origins;
  if (origins === undefined) return {};
  const changed = new Set([...editedFields(record), ...edited]);
  const after: Record<string, readonly Origin[]> = {};
  for (const [field, places] of Object.entries(origins))
    after[field] = changed.has(readDestinationPath(field)?.parts[0] ?? field)
      ? [{ from: 'request' }]
      : places;
  return after;
}

/** `stored` with what `asked` adds (more approvals, more flags), or `undefined` when it adds nothing. */
function tightened(
  stored: ApprovalRequirement | undefined,
  asked: ApprovalRequirement | undefined,
): ApprovalRequirement | undefined {
  if (asked === undefined) return undefined;
  const approvals = Math.max(stored?.approvals ?? 1, asked.approvals);
  const flags = [...new Set([...(stored?.approverFlags ?? []), ...asked.approverFlags])].sort();
  const passkey = stored?.passkey === true || asked.passkey === true;
  if (
    stored !== undefined &&
    approvals === stored.approvals &&
    flags.length === stored.approverFlags.length &&
    passkey === (stored.passkey === true)
  )
    return undefined;
  const rules = [...new Set([...(stored?.rules ?? []), ...asked.rules])];
  return Object.freeze({
    approvals,
    approverFlags: Object.freeze(flags),
    rules: Object.freeze(rules),
    ...(passkey ? { passkey: true as const } : {}),
  });
}

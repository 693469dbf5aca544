import type { ValidationIssue } from '../../result.js';
import type { PayloadEdit } from '../../stores/store.js';
import { canonicalJson, snapshotJson } from '../../util/canonical-json.js';
import { isRecord } from '../../util/is-record.js';
import { confirmationDigest } from '../digest.js';
import type { EditRules } from '../flow-context.js';

/** Why an edit is refused: the flow words it in the person's language. */
export type EditRefusal =
  | { readonly ok: false; readonly code: 'INVALID_OPTION' | 'SCHEMA_ERROR'; readonly detail: string }
  | {
      readonly ok: false;
      readonly code: 'INVALID_INPUT';
      readonly detail: string;
      readonly issues: readonly ValidationIssue[];
    };

/** The edit to claim with (`undefined`: nothing changed), or why it is refused. */
export type EditOutcome = { readonly ok: true; readonly edit: PayloadEdit | undefined } | EditRefusal;

/**
 * A person's edit of a stored payload, checked: a plain JSON object, only `editable` top-level
 * fields differ (compared as canonical JSON, so key order is no change), and the whole edited payload
 * passes `payloadSchema`. The result carries the edited payload's digest under the same tool: an edit
 * changes what is sent, never which tool sends it.
 */
export async function checkPayloadEdit(asked: {
  readonly tool: string;
  readonly original: unknown;
  readonly fromDigest: string;
  readonly proposed: unknown;
  readonly rules: EditRules | undefined;
}): Promise<EditOutcome> {
  const { tool, original, fromDigest, proposed, rules } = asked;
  if (rules === undefined || rules.editable.length === 0)
    return refuse(`${tool} does not let a person edit its payload`);
  const snapshot = snapshotJson(proposed);
  if (!snapshot.ok) return refuse(`the edited payload must be plain JSON: ${snapshot.detail}`);
  const edited = snapshot.value;
  if (!isRecord(edited) || Array.isArray(edited)) return refuse('the edited payload must be a JSON object');
  if (!isRecord(original) || Array.isArray(original))
    return refuse('this payload is not an object of fields');
  const fields = changedFields(original, edited);
  if (fields.length === 0) return { ok: true, edit: undefined };
  const locked = fields.filter((field) => !rules.editable.includes(field));
  if (locked.length > 0)
    return refuse(
      `only ${rules.editable.map(quote).join(', ')} may be edited; ${locked.map(quote).join(', ')} ${locked.length === 1 ? 'was' : 'were'} changed`,
    );
  const verdict = await rules.check(edited);
  if (typeof verdict === 'string') return { ok: false, code: 'SCHEMA_ERROR', detail: verdict };
  if (!verdict.valid) {
    const detail = verdict.issues.map((issue) => `${issue.path || '(root)'}: ${issue.message}`).join('; ');
    return { ok: false, code: 'INVALID_INPUT', detail, issues: verdict.issues };
  }
  return {
    ok: true,
    edit: {
      payload: edited,
      payloadJson: JSON.stringify(edited),
      digest: confirmationDigest(tool, edited),
      fromDigest,
      fields,
    },
  };
}

/** Top-level fields added, removed or changed, in the edited payload's order then the removed ones. */
function changedFields(original: Record<string, unknown>, edited: Record<string, unknown>): string[] {
  const changed: string[] = [];
  for (const key of Object.keys(edited)) {
    if (!Object.hasOwn(original, key) || canonicalJson(original[key]) !== canonicalJson(edited[key]))
      changed.push(key);
  }
  for (const key of Object.keys(original)) if (!Object.hasOwn(edited, key)) changed.push(key);
  return changed;
}

const quote = (field: string): string => JSON.stringify(field);

function refuse(detail: string): EditRefusal {
  return { ok: false, code: 'INVALID_OPTION', detail };
}

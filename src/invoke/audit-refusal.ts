import { ruleDraft } from '../audit/audit-drafts.js';
import type { AuditSink } from '../audit/audit-sink.js';
import type { CallerKind } from '../tool.js';

/**
 * `answer` once the rule's refusal is appended to the audit log (one append; a failed one is reported,
 * never thrown), or at once when nothing keeps a log.
 */
export function afterAuditingRefusal<T>(
  ruled: {
    readonly audit?: AuditSink | undefined;
    readonly call: { readonly tool: string; readonly actor: string | undefined };
    readonly caller: CallerKind;
    readonly now: number;
  },
  refusal: { readonly rule: string; readonly decision: 'deny' | 'limit' | 'error'; readonly reason?: string },
  answer: T,
): T | Promise<T> {
  const { audit } = ruled;
  if (audit === undefined) return answer;
  const draft = ruleDraft({
    tool: ruled.call.tool,
    actor: ruled.call.actor,
    caller: ruled.caller,
    rule: refusal.rule,
    decision: refusal.decision,
    reason: refusal.reason,
    at: ruled.now,
  });
  return audit.record(draft).then(() => answer);
}

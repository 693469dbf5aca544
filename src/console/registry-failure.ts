import { formatMessage, type Locale } from '../messages/index.js';
import type { ErrorCode, ToolFailure, ValidationIssue } from '../result.js';

/**
 * A registry failure as the console answers it: the HTTP status, the code, the words, the issues, and
 * for a rule's refusal the rule (and when its limit resets).
 */
export interface FailureBody {
  readonly status: number;
  readonly code: string;
  readonly error: string;
  readonly issues?: readonly ValidationIssue[];
  readonly rule?: string;
  readonly resetsAt?: string;
}

/**
 * Failures whose registry message carries what a store or the library itself threw (a driver's error
 * text, a connection string): the person is told the registry's words without that detail.
 */
const INTERNAL: ReadonlySet<string> = new Set(['STORE_FAILED', 'RUN_FAILED']);

/** `failure` for the page: its code, the registry's own words in `locale`, never an internal detail. */
export function failureBody(failure: ToolFailure, locale: Locale): FailureBody {
  const { code, error, issues, rule, resetsAt } = failure;
  return {
    status: statusForCode(code),
    code,
    error: INTERNAL.has(code) ? formatMessage(code as ErrorCode, {}, locale) : error,
    ...(issues === undefined ? {} : { issues }),
    ...(rule === undefined ? {} : { rule }),
    ...(resetsAt === undefined ? {} : { resetsAt }),
  };
}

/**
 * The HTTP status of a registry outcome the console passes on. The body says the same in `code`; the
 * status is for logs and for clients that only look at it.
 */
function statusForCode(code: string): number {
  switch (code) {
    // Recorded, not refused: the person's approval counts, and more people must approve; or it is
    // approved and held for its undo window (`holdMs`), sent when that ends.
    case 'AWAITING_APPROVALS':
    case 'SCHEDULED':
      return 202;
    case 'CONFIRMATION_NOT_FOUND':
    case 'NOT_FOUND':
      return 404;
    case 'LINK_REFUSED':
      return 410;
    case 'FORBIDDEN':
    case 'SAME_PERSON':
    case 'FLAG_NOT_GRANTED':
    case 'SCOPE_MISMATCH':
    case 'RULE_DENIED':
    // A passkey was needed and none came (or the registry has none configured), or it proves nothing.
    case 'PASSKEY_REQUIRED':
    case 'PASSKEY_INVALID':
      return 403;
    case 'LIMIT_REACHED':
      return 429;
    case 'ALREADY_DECIDED':
    case 'ALREADY_APPROVED':
    case 'EXPIRED':
    case 'PAYLOAD_CHANGED':
    case 'UNKNOWN_TOOL':
      return 409;
    case 'INVALID_INPUT':
    case 'INVALID_OPTION':
      return 422;
    case 'DELIVERY_FAILED':
      return 502;
    case 'STORE_FAILED':
      return 503;
    default:
      return 500;
  }
}

/**
 * The HTTP status of a registry outcome the console passes on. The body says the same in `code`; the
 * status is for logs and for clients that only look at it.
 */
export function statusForCode(code: string): number {
  switch (code) {
    case 'CONFIRMATION_NOT_FOUND':
      return 404;
    case 'FORBIDDEN':
    case 'SAME_PERSON':
    case 'FLAG_NOT_GRANTED':
    case 'SCOPE_MISMATCH':
      return 403;
    case 'ALREADY_DECIDED':
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

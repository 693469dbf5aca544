/**
 * Whether this runtime ties I/O to the request that started it (Cloudflare Workers, whose
 * `navigator.userAgent` says so): there, a request is woken only by its own timers and I/O, so a promise
 * another request settles never resumes it, and the request is cancelled as hung.
 */
export function isPerRequestIo(): boolean {
  return (
    (globalThis as { navigator?: { userAgent?: unknown } }).navigator?.userAgent === 'Cloudflare-Workers'
  );
}

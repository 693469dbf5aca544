/** The hostnames a loopback-only server answers to. */
export const LOOPBACK_HOSTS: readonly string[] = ['localhost', '127.0.0.1', '[::1]'];

/** The hostname of a `Host` header or an `Origin`, lower-cased; `undefined` when it cannot be read. */
export function hostnameOf(value: string, isOrigin: boolean): string | undefined {
  try {
    const url = new URL(isOrigin ? value : `http://${value}`);
    if (!isOrigin && (url.pathname !== '/' || url.username !== '' || url.search !== '')) return undefined;
    return url.hostname.toLowerCase();
  } catch {
    return undefined;
  }
}

/** Which requests a server answers, against DNS rebinding and cross-site browser calls. */
export interface HostPolicy {
  /** Hostnames (no port) the `Host` header may name, or `'any'` behind a proxy that checks it. */
  readonly allowedHosts: readonly string[] | 'any';
  /** Exact origins (`https://app.example.com`) allowed besides those on an allowed host. */
  readonly allowedOrigins: readonly string[];
}

/**
 * Why a request must be refused, or `undefined` to serve it: the `Host` must name an allowed host
 * (a DNS-rebinding page names its own), and a browser's `Origin`, when sent, must be allowed too.
 */
export function hostRefusal(
  host: string | undefined,
  origin: string | undefined,
  policy: HostPolicy,
): string | undefined {
  const hosts = policy.allowedHosts;
  if (hosts !== 'any') {
    const hostname = host === undefined ? undefined : hostnameOf(host, false);
    if (hostname === undefined || !hosts.includes(hostname)) return 'Host header not allowed';
  }
  if (origin !== undefined && origin !== 'null' && !policy.allowedOrigins.includes(origin)) {
    const hostname = hostnameOf(origin, true);
    if (hosts === 'any' || hostname === undefined || !hosts.includes(hostname)) return 'Origin not allowed';
  }
  if (origin === 'null') return 'Origin not allowed';
  return undefined;
}

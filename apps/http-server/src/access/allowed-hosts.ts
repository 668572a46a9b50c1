/** Host names of this machine, allowed by default when the server binds to loopback. */
export const loopbackHostNames: readonly string[] = ['localhost', '127.0.0.1', '::1'];

/**
 * The host names the `Host` header may carry, from the address the server binds to. Checking `Host` (not comparing
 * `Origin` with `Host`) is what stops DNS rebinding: a page on evil.example that resolves to 127.0.0.1 sends
 * `Host: evil.example`. Binding to every interface leaves the names unknown: `undefined` unless given explicitly.
 */
export function allowedHostsFor(bindHost: string, extra: readonly string[] = []): readonly string[] | undefined {
  const host = bindHost.replace(/^\[|\]$/g, '');
  if (loopbackHostNames.includes(host)) return [...loopbackHostNames, ...extra];
  if (host === '0.0.0.0' || host === '::') return extra.length > 0 ? [...loopbackHostNames, ...extra] : undefined;
  return [host, ...loopbackHostNames, ...extra];
}

/** The host name of a `Host` header or an `Origin` URL (no port, no brackets), lower-cased. */
export function hostNameOf(value: string, isOrigin: boolean): string | undefined {
  try {
    return new URL(isOrigin ? value : `http://${value}`).hostname.replace(/^\[|\]$/g, '').toLowerCase();
  } catch {
    return undefined;
  }
}

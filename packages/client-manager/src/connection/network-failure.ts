/**
 * Why a remote server (Streamable HTTP or SSE) could not be reached, in words a person can act on: `fetch` (undici)
 * says only "fetch failed" and keeps the system error (`ECONNREFUSED`, `ENOTFOUND`, a certificate code) in its
 * `cause`, sometimes inside an `AggregateError` (one per address tried). The fixes name the config keys of
 * packages/shared/README.md ("Configuration": `url`, `headers`, `oauth`).
 */

/** The system error code behind a failed connect, however deep the SDK and undici wrapped it. */
export function networkErrorCode(error: unknown): string | undefined {
  const seen = new Set<unknown>();
  const queue: unknown[] = [error];
  while (queue.length > 0 && seen.size < 16) {
    const current = queue.shift();
    if (current === null || typeof current !== 'object' || seen.has(current)) continue;
    seen.add(current);
    const { code, cause, errors } = current as { code?: unknown; cause?: unknown; errors?: unknown };
    if (typeof code === 'string' && isKnownCode(code)) return code;
    queue.push(cause);
    if (Array.isArray(errors)) queue.push(...errors);
  }
  // The SSE transport of the 1.x SDK keeps only the text (`SSE error: TypeError: fetch failed: connect ECONNREFUSED`).
  const text = error instanceof Error ? error.message : String(error);
  return knownCodes.find((code) => new RegExp(`\\b${code}\\b`).test(text));
}

const connectCodes = ['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ECONNRESET', 'ETIMEDOUT', 'UND_ERR_CONNECT_TIMEOUT'];
const tlsCodes = [
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_GET_ISSUER_CERT',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'ERR_SSL_WRONG_VERSION_NUMBER',
  'EPROTO',
];
const knownCodes = [...connectCodes, ...tlsCodes];

function isKnownCode(code: string): boolean {
  return knownCodes.includes(code);
}

/** `host:port` of a URL, the port written out (`example.com:443`), or the text as given when it is no URL. */
/**
 * The parts of `url` a message may show. A configured URL can carry a secret (`user:pass@`, `?api_key=…`, an
 * expanded `${env:…}`), and these messages reach MCP clients (`tool_discovery`'s notice, a failed call), the console
 * and logs: only the origin and the path are shown, never the userinfo, query or fragment.
 */
function hostAndPort(url: string): { host: string; address: string; shown: string } {
  try {
    const parsed = new URL(url);
    const port = parsed.port || (parsed.protocol === 'https:' ? '443' : '80');
    return {
      host: parsed.hostname,
      address: `${parsed.hostname}:${port}`,
      shown: `${parsed.protocol}//${parsed.host}${parsed.pathname}`,
    };
  } catch {
    return { host: 'the configured host', address: 'the configured URL', shown: 'the configured URL' };
  }
}

/**
 * What went wrong reaching `url` and what to do, or undefined when the error is none of the known network, TLS or
 * HTTP failures (then the SDK's own words are kept). `status`: the HTTP status the SDK kept, if any.
 */
export function explainRemoteFailure(error: unknown, url: string, status: number | undefined): string | undefined {
  const { host, address, shown } = hostAndPort(url);
  const code = networkErrorCode(error);
  if (code === 'ECONNREFUSED')
    return `cannot connect: nothing listens on ${address} (ECONNREFUSED) — is the server running, and is the port in its "url" right?`;
  if (code === 'ENOTFOUND')
    return `cannot connect: the host name "${host}" does not resolve (ENOTFOUND) — check the URL in its "url"`;
  if (code === 'EAI_AGAIN')
    return `cannot connect: the host name "${host}" could not be looked up (EAI_AGAIN) — check the URL in its "url", and the network or DNS`;
  if (code === 'ECONNRESET')
    return `cannot connect: ${address} closed the connection (ECONNRESET) — is it an MCP server, and does its "url" use the right scheme (http or https)?`;
  if (code === 'ETIMEDOUT' || code === 'UND_ERR_CONNECT_TIMEOUT')
    return `cannot connect: ${address} did not answer (${code}) — is the host up, and does a firewall or proxy let the connection through?`;
  if (code === 'ERR_SSL_WRONG_VERSION_NUMBER' || code === 'EPROTO')
    return `cannot connect: the TLS handshake with ${address} failed (${code}) — the server may speak plain http: check the scheme in its "url"`;
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID')
    return `cannot connect: the TLS certificate of ${address} is not for "${host}" (${code}) — use the host name the certificate names in its "url"`;
  if (code === 'CERT_HAS_EXPIRED' || code === 'CERT_NOT_YET_VALID')
    return `cannot connect: the TLS certificate of ${address} is not valid now (${code}) — the server must renew it (or the clock here is wrong)`;
  if (code !== undefined)
    return (
      `cannot connect: the TLS certificate of ${address} is not trusted (${code}) — if it is signed by your own ` +
      'certificate authority (or self-signed), set NODE_EXTRA_CA_CERTS=/path/to/ca.pem where search-mcp starts'
    );
  if (status === 404)
    return `HTTP 404 at ${shown}: the URL has no MCP endpoint — servers usually serve /mcp (or /sse for the old SSE transport): check the path in its "url"`;
  if (status === 401)
    return (
      `HTTP 401 at ${shown}: the server wants credentials and offers no OAuth — put its token in "headers" ` +
      '(e.g. "headers": {"Authorization": "Bearer ${TOKEN}"}), or set "oauth" when it has an authorization server'
    );
  if (status === 403)
    return `HTTP 403 at ${shown}: the server refused the credentials — check the token in its "headers" and what it is allowed to do`;
  return undefined;
}

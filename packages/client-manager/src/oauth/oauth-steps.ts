import type { BackendAuthorizationStep, McpFetchLike } from '@search-mcp/shared';

/**
 * Which step of the flow an OAuth request belongs to, from what it asks (docs/oauth.md, "When it fails"): metadata
 * documents are discovery, a POST of client metadata is registration, the token endpoint's grant says code exchange
 * or refresh. A failure is reported with the step of the last request made.
 */
export function stepOf(input: string | URL, init: RequestInit | undefined): BackendAuthorizationStep {
  const url = new URL(input);
  if (url.pathname.includes('/.well-known/')) return 'discovery';
  const body =
    typeof init?.body === 'string' ? init.body : init?.body instanceof URLSearchParams ? String(init.body) : '';
  if (body.includes('grant_type=refresh_token')) return 'refresh';
  if (body.includes('grant_type=')) return 'token';
  if (body.includes('redirect_uris')) return 'registration';
  if (body.includes('token=')) return 'revocation';
  return 'discovery';
}

/** A fetch that remembers the step of the last request it made (read with `last()`). */
export function stepTrackingFetch(next: McpFetchLike): { fetch: McpFetchLike; last: () => BackendAuthorizationStep } {
  let last: BackendAuthorizationStep = 'discovery';
  return {
    fetch: (input, init) => {
      last = stepOf(input, init);
      return next(input, init);
    },
    last: () => last,
  };
}

/**
 * A fetch that asks the token endpoint at most once after a refusal: the SDK's `auth()` tries once more after
 * `invalid_grant` or `invalid_client`, which for a grant without a person would only present the refused assertion
 * or key again (RFC 7523 asks clients not to). The second ask fails here with the first refusal's words. A DPoP
 * `use_dpop_nonce` answer is no refusal (the SDK repeats that request with the nonce).
 */
export function oneRefusalOnly(next: McpFetchLike): McpFetchLike {
  let refusal: string | undefined;
  return async (input, init) => {
    const toTokenEndpoint = stepOf(input, init) === 'token';
    if (toTokenEndpoint && refusal !== undefined) throw new Error(refusal);
    const response = await next(input, init);
    if (toTokenEndpoint && !response.ok) {
      const body = (await response
        .clone()
        .json()
        .catch(() => undefined)) as { error?: unknown; error_description?: unknown } | undefined;
      if (body?.error !== 'use_dpop_nonce') {
        const described = typeof body?.error_description === 'string' ? `: ${body.error_description}` : '';
        refusal = `${typeof body?.error === 'string' ? body.error : `HTTP ${response.status}`}${described}`;
      }
    }
    return response;
  };
}

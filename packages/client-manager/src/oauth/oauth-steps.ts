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

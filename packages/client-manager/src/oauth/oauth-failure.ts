import { authorizeCommand, BackendAuthorizationError, type BackendAuthorizationStep } from '@search-mcp/shared';

const stepWords: Record<BackendAuthorizationStep, string> = {
  discovery: 'discovery (protected-resource or authorization-server metadata)',
  registration: 'client registration',
  authorization: 'authorization',
  callback: 'redirect back from the authorization server',
  token: 'token request (code exchange or grant) at the token endpoint',
  refresh: 'token refresh',
  resource: 'resource check',
  revocation: 'token revocation',
};

/** Text from a server (an `error_description`, an SDK message quoting a body): one line, bounded, no control bytes. */
export function cleanText(text: string, limit = 300): string {
  const line = text.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();
  return line.length > limit ? `${line.slice(0, limit)}…` : line;
}

/** A server that needs a person to authorize it, with the one command that does. */
export function needsAuthorization(serverId: string, reason?: string): BackendAuthorizationError {
  return new BackendAuthorizationError({
    serverId,
    step: 'authorization',
    needsUser: true,
    // The backend is what waits for a login, not the caller's own credentials: never a 401 of ours.
    statusCode: 503,
    message: `MCP server '${serverId}' needs OAuth authorization${reason ? ` (${reason})` : ''}: run \`${authorizeCommand(serverId)}\``,
  });
}

/** A failed step of the flow, in words that name the server and the step; never a secret (the SDK's text is cleaned). */
export function flowFailure(
  serverId: string,
  step: BackendAuthorizationStep,
  reason: string,
  options: { cause?: unknown; statusCode?: number; needsUser?: boolean } = {},
): BackendAuthorizationError {
  return new BackendAuthorizationError({
    serverId,
    step,
    needsUser: options.needsUser ?? true,
    ...(options.statusCode !== undefined ? { statusCode: options.statusCode } : {}),
    message: `MCP server '${serverId}': OAuth ${stepWords[step]} failed: ${cleanText(reason)}; fix it, then run \`${authorizeCommand(serverId)}\``,
    ...(options.cause !== undefined ? { cause: options.cause } : {}),
  });
}

/** An error of the SDK's `auth()` as a failed step: its own class says the step where the last request cannot. */
export function describeSdkFailure(serverId: string, error: unknown, lastStep: BackendAuthorizationStep) {
  if (BackendAuthorizationError.isInstance(error)) return error;
  const name = error instanceof Error ? error.name : '';
  const message = error instanceof Error ? error.message : String(error);
  let step = lastStep;
  if (name === 'IssuerMismatchError') {
    step = (error as { kind?: string }).kind === 'authorization_response' ? 'callback' : 'discovery';
  } else if (name === 'AuthorizationServerMismatchError') step = 'callback';
  else if (name === 'RegistrationRejectedError' || name === 'OAuthClientRegistrationError') step = 'registration';
  else if (/resource/i.test(message) && /match/i.test(message)) step = 'resource';
  else if (error instanceof TypeError && /fetch failed/i.test(message)) {
    const cause = (error as { cause?: { code?: string } }).cause;
    // Unreachable for now: time may mend it (the server is retried like any that failed to start), no person needed.
    return flowFailure(serverId, step, `could not reach the server${cause?.code ? ` (${cause.code})` : ''}`, {
      cause: error,
      needsUser: false,
    });
  }
  return flowFailure(serverId, step, message, { cause: error });
}

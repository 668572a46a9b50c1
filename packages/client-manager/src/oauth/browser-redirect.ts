import { BackendAuthorizationError } from '@search-mcp/shared';
import type { AuthorizationCallback } from './authorization-callback.js';
import type { LoopbackCallback } from './loopback-callback.js';
import { flowFailure, needsAuthorization } from './oauth-failure.js';
import type { AuthorizationOpener } from './oauth-options.js';

/**
 * Sends a person to the authorization URL (the opener) and waits for the browser to come back to the loopback
 * listener, at most `timeoutMs` (then the server waits in `needs-auth`, with the command that tries again). Resolves
 * `undefined` at once when the opener says nobody can be shown the URL now (it resolved `false`).
 */
export async function awaitBrowserRedirect(settings: {
  serverId: string;
  authorizationUrl: URL;
  opener: AuthorizationOpener;
  loopback: LoopbackCallback;
  timeoutMs: number;
}): Promise<AuthorizationCallback | undefined> {
  const { serverId, timeoutMs } = settings;
  // The time runs from the moment the URL is handed over: an opener that never returns (a host's prompt nobody
  // answers) ends with the rest.
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    // Under a second (a host's short setting) in milliseconds: "within 0 s" would say nothing.
    const waited = timeoutMs < 1000 ? `${timeoutMs} ms` : `${Math.round(timeoutMs / 1000)} s`;
    timer = setTimeout(
      () => reject(needsAuthorization(serverId, `nobody completed the authorization within ${waited}`)),
      timeoutMs,
    );
  });
  try {
    let shown: boolean | undefined;
    try {
      shown = (await Promise.race([settings.opener(settings.authorizationUrl, serverId), timedOut])) ?? undefined;
    } catch (error) {
      if (BackendAuthorizationError.isInstance(error)) throw error;
      const reason = error instanceof Error ? error.message : String(error);
      throw flowFailure(serverId, 'authorization', `could not open the authorization URL: ${reason}`, { cause: error });
    }
    if (shown === false) return undefined;
    return await Promise.race([settings.loopback.callback, timedOut]);
  } finally {
    clearTimeout(timer);
  }
}

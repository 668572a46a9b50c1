import { BackendAuthorizationError, isPerUserServer, type ServerConfig, type ServerStatus } from '@search-mcp/shared';
import type { ServerConnection } from './connection/server-connection.js';
import { readAuthorizationCallback } from './oauth/authorization-callback.js';
import type { ServerAuthorization } from './oauth/server-authorization.js';
import type { PerUserConnections } from './per-user/per-user-connections.js';

/** What the manager's OAuth methods work on: its servers' connections and the per-user callers' ones. */
export interface AuthorizationTargets {
  /** A configured server's connection; a `ConfigError` for an unknown id. */
  connection(id: string): ServerConnection;
  connections(): Iterable<ServerConnection>;
  perUser: PerUserConnections;
  /** A status with the per-user count added, for a per-user server. */
  withPerUser(status: ServerStatus): ServerStatus;
}

/** `McpClientManager.authorize` (docs/oauth.md): connects, logging in through the opener where the server asks. */
export async function authorizeServer(
  targets: AuthorizationTargets,
  id: string,
  options: { force?: boolean },
): Promise<ServerStatus> {
  const connection = targets.connection(id);
  const authorization = authorizationOf(connection);
  // What is stored decides (another process may have asked for a wider scope).
  await authorization.provider.ensureLoaded();
  if (options.force || authorization.needsLogin()) {
    await authorization.login();
    await connection.connectSettled();
  }
  try {
    await connection.start();
  } catch (error) {
    // The connect's own time ran out while the person was still in the browser: the login goes on (up to
    // `oauth.authorizationTimeoutMs`), and its end connects the server.
    if (!authorization.authorizing()) throw error;
    await authorization.settled();
    await connection.connectSettled();
    await connection.start();
  }
  return connection.status();
}

/** `McpClientManager.beginAuthorization`: the server's own authorization, or a caller's of a per-user server. */
export async function beginServerAuthorization(
  targets: AuthorizationTargets,
  id: string,
  options: { redirectUrl: string; subject?: string },
): Promise<{ authorizationUrl?: string }> {
  const connection = targets.connection(id);
  const authorization = authorizationOf(connection);
  const perUser = perUserConfig(connection, options.subject);
  if (perUser && options.subject !== undefined) {
    // The caller's own authorization, on their own connection (README, "Per-user servers").
    const url = await targets.perUser.begin(perUser, options.subject, options.redirectUrl);
    return url !== undefined ? { authorizationUrl: webAuthorizationUrl(id, url) } : {};
  }
  const url = await authorization.begin(options.redirectUrl);
  return url ? { authorizationUrl: webAuthorizationUrl(id, url.href) } : {};
}

/**
 * The authorization URL a host hands to a person's browser (the console opens it in a tab): http(s) only. It comes
 * from the authorization server's metadata, so a hostile or broken one could name `javascript:` or `data:`.
 */
function webAuthorizationUrl(serverId: string, url: string): string {
  let protocol: string;
  try {
    protocol = new URL(url).protocol;
  } catch {
    protocol = '';
  }
  if (protocol === 'https:' || protocol === 'http:') return url;
  throw new BackendAuthorizationError({
    serverId,
    step: 'authorization',
    statusCode: 502,
    message: `MCP server '${serverId}': its authorization server gave an authorization URL that is not http(s) (${protocol || 'unparsable'}); refusing to hand it to a browser`,
  });
}

/** `McpClientManager.completeAuthorization`: the `state` finds the authorization (a server's, or a caller's). */
export async function completeServerAuthorization(
  targets: AuthorizationTargets,
  query: URLSearchParams,
): Promise<ServerStatus> {
  const callback = readAuthorizationCallback(query);
  const connection = [...targets.connections()].find((candidate) => candidate.authorization?.ownsState(callback.state));
  if (!connection) {
    const caller = await targets.perUser.complete(callback);
    if (caller) return targets.withPerUser(caller);
    throw new BackendAuthorizationError({
      serverId: '(unknown)',
      step: 'callback',
      statusCode: 400,
      message:
        'no authorization is waiting for this redirect (its state matches none Search MCP started; an old or forged redirect)',
    });
  }
  await authorizationOf(connection).complete(callback);
  await connection.connectSettled();
  await connection.start();
  return connection.status();
}

/** `McpClientManager.logout`: the server's own tokens, or (with `subject`) one caller's of a per-user server. */
export async function logoutServer(
  targets: AuthorizationTargets,
  id: string,
  options: { subject?: string },
): Promise<ServerStatus> {
  const connection = targets.connection(id);
  const authorization = authorizationOf(connection);
  const perUser = perUserConfig(connection, options.subject);
  if (perUser && options.subject !== undefined) {
    return targets.withPerUser(await targets.perUser.logout(perUser, options.subject));
  }
  await authorization.logout();
  if (connection.config.enabled) await connection.reconnectNow();
  await connection.connectSettled();
  return connection.status();
}

/** The config of a per-user server when the request is for one of its callers; else undefined (the shared connection). */
function perUserConfig(connection: ServerConnection, subject: string | undefined): ServerConfig | undefined {
  return subject !== undefined && isPerUserServer(connection.config) ? connection.config : undefined;
}

/** A server's OAuth, or a clear error for a server OAuth does not apply to. */
function authorizationOf(connection: ServerConnection): ServerAuthorization {
  const { authorization, config } = connection;
  if (authorization) return authorization;
  const why =
    config.transport === 'stdio'
      ? 'it is a local (stdio) server'
      : config.oauth === false
        ? 'its config entry says "oauth": false'
        : 'its config entry sends its own Authorization header (add an "oauth" key to use OAuth instead)';
  throw new BackendAuthorizationError({
    serverId: config.id,
    step: 'authorization',
    statusCode: 400,
    message: `MCP server '${config.id}' does not use OAuth: ${why}`,
  });
}

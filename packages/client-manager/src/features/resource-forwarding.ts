import type { Logger } from '@search-mcp/shared';
import { isRecord } from '@search-mcp/shared';
import type { BackendRequestOptions } from '../connection/backend-request-options.js';
import type { ServerConnection } from '../connection/server-connection.js';
import { type Listed, listPage, notOffered, type Page, requireCapability } from './feature-support.js';

export type ResourcePage = Page<'resources', Listed & { uri: string; name: string }>;
export type ResourceTemplatePage = Page<'resourceTemplates', Listed & { uriTemplate: string; name: string }>;

const dropped = (logger: Logger, what: string) => (count: number) =>
  logger.warn(`ignored ${count} malformed ${what} (each needs string fields)`, { count });

/** One page of `resources/list` (empty, without a round trip, from a server without `resources`). */
export async function listResources(
  connection: ServerConnection,
  logger: Logger,
  cursor: string | undefined,
  options: BackendRequestOptions | undefined,
): Promise<ResourcePage> {
  return (await listPage(connection, {
    method: 'resources/list',
    key: 'resources',
    capability: 'resources',
    required: ['uri', 'name'],
    cursor,
    options,
    onDropped: dropped(logger, 'resources'),
  })) as ResourcePage;
}

/** One page of `resources/templates/list`. */
export async function listResourceTemplates(
  connection: ServerConnection,
  logger: Logger,
  cursor: string | undefined,
  options: BackendRequestOptions | undefined,
): Promise<ResourceTemplatePage> {
  return (await listPage(connection, {
    method: 'resources/templates/list',
    key: 'resourceTemplates',
    capability: 'resources',
    required: ['uriTemplate', 'name'],
    cursor,
    options,
    onDropped: dropped(logger, 'resource templates'),
  })) as ResourceTemplatePage;
}

/** `resources/read`: the result (`{ contents, … }`) unchanged, or a 2026 backend's `input_required` (retry options). */
export async function readResource(
  connection: ServerConnection,
  uri: string,
  options: BackendRequestOptions | undefined,
): Promise<Record<string, unknown>> {
  requireCapability(connection, 'resources', 'resources/read');
  return connection.forward('resources/read', { uri }, options, {
    operation: `resources/read ${uri}`,
    name: uri,
    check: (result) => (Array.isArray(result.contents) ? undefined : '`contents` is not an array'),
  });
}

/** `resources/subscribe`, sent for the first subscriber of a uri only; renewed after every reconnect. */
export async function subscribeResource(
  connection: ServerConnection,
  uri: string,
  options: BackendRequestOptions | undefined,
): Promise<void> {
  requireSubscribe(connection, 'resources/subscribe');
  if (!connection.sessionState.addSubscription(uri)) return;
  try {
    await connection.forward('resources/subscribe', { uri }, options, { operation: `resources/subscribe ${uri}` });
  } catch (error) {
    connection.sessionState.removeSubscription(uri);
    throw error;
  }
}

/** `resources/unsubscribe`, sent when the last subscriber of a uri is gone. */
export async function unsubscribeResource(
  connection: ServerConnection,
  uri: string,
  options: BackendRequestOptions | undefined,
): Promise<void> {
  requireSubscribe(connection, 'resources/unsubscribe');
  if (!connection.sessionState.removeSubscription(uri)) return;
  await connection.forward('resources/unsubscribe', { uri }, options, { operation: `resources/unsubscribe ${uri}` });
}

/** Subscriptions need `resources.subscribe`, not only `resources`. */
function requireSubscribe(connection: ServerConnection, method: string): void {
  requireCapability(connection, 'resources', method);
  const resources = connection.capabilities()?.resources;
  if (resources !== undefined && !(isRecord(resources) && resources.subscribe === true)) {
    throw notOffered(connection, method);
  }
}

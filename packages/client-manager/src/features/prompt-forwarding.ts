import type { Logger, LoggingLevel } from '@search-mcp/shared';
import type { BackendRequestOptions } from '../connection/backend-request-options.js';
import type { ServerConnection } from '../connection/server-connection.js';
import { type Listed, listPage, offers, type Page, requireCapability } from './feature-support.js';

export type PromptPage = Page<'prompts', Listed & { name: string }>;

/** `completion/complete` params: what is completed, the argument typed so far, and the others already given. */
export interface CompleteParams {
  ref: { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string };
  argument: { name: string; value: string };
  context?: { arguments?: Record<string, string> };
}

/** One page of `prompts/list` (empty, without a round trip, from a server without `prompts`). */
export async function listPrompts(
  connection: ServerConnection,
  logger: Logger,
  cursor: string | undefined,
  options: BackendRequestOptions | undefined,
): Promise<PromptPage> {
  return (await listPage(connection, {
    method: 'prompts/list',
    key: 'prompts',
    capability: 'prompts',
    required: ['name'],
    cursor,
    options,
    onDropped: (count) => logger.warn(`ignored ${count} malformed prompts (each needs a string name)`, { count }),
  })) as PromptPage;
}

/** `prompts/get`: the result (`{ messages, … }`) unchanged, or a 2026 backend's `input_required` (retry options). */
export async function getPrompt(
  connection: ServerConnection,
  name: string,
  args: Record<string, string> | undefined,
  options: BackendRequestOptions | undefined,
): Promise<Record<string, unknown>> {
  requireCapability(connection, 'prompts', 'prompts/get');
  return connection.forward('prompts/get', { name, ...(args ? { arguments: args } : {}) }, options, {
    operation: `prompts/get ${name}`,
    name,
    check: (result) => (Array.isArray(result.messages) ? undefined : '`messages` is not an array'),
  });
}

/** `completion/complete`: the result (`{ completion: { values, … } }`) unchanged. */
export async function complete(
  connection: ServerConnection,
  params: CompleteParams,
  options: BackendRequestOptions | undefined,
): Promise<Record<string, unknown>> {
  requireCapability(connection, 'completions', 'completion/complete');
  const name = params.ref.type === 'ref/prompt' ? params.ref.name : params.ref.uri;
  return connection.forward('completion/complete', { ...params }, options, {
    operation: `completion/complete ${name}`,
    name,
    check: (result) => {
      const completion = result.completion as { values?: unknown } | undefined;
      return Array.isArray(completion?.values) ? undefined : '`completion.values` is not an array';
    },
  });
}

/**
 * `logging/setLevel`, remembered and sent again after every reconnect. A server without `logging` is only
 * remembered (nothing to send): the level is what the client side wants, whoever can honour it.
 */
export async function setLoggingLevel(
  connection: ServerConnection,
  level: LoggingLevel,
  options: BackendRequestOptions | undefined,
): Promise<void> {
  connection.sessionState.level = level;
  if (!offers(connection, 'logging')) return;
  await connection.forward('logging/setLevel', { level }, options, { operation: `logging/setLevel ${level}` });
}

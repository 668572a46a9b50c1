import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { LoggingLevel } from '@modelcontextprotocol/sdk/types.js';
import { isLoggingLevel, isRecord } from '@search-mcp/shared';
import { z } from 'zod';
import type { McpClientManagerEvents } from '../mcp-client-manager-options.js';
import { type LogRateLimit, LogRateLimiter } from './log-rate-limit.js';

/** Emits one manager event (the manager's own `emit`, bound). */
export type EmitManagerEvent = <K extends keyof McpClientManagerEvents>(
  event: K,
  ...args: McpClientManagerEvents[K]
) => void;

export interface NotificationRelaySettings {
  serverId: string;
  emit: EmitManagerEvent;
  logRateLimit: LogRateLimit;
}

/** Params pass through as the backend sent them: the SDK's schemas would strip fields they do not know. */
function notification<M extends string>(method: M) {
  return z.object({ method: z.literal(method), params: z.looseObject({}).optional() });
}

/**
 * Turns a backend's notifications into manager events: log messages (rate-limited), resource updates and list
 * changes, prompt list changes, task status, URL elicitation completion. Malformed ones are ignored.
 * @returns stops the relays' timers (call when the connection ends)
 */
export function installNotificationRelays(client: Client, settings: NotificationRelaySettings): () => void {
  const { serverId, emit } = settings;
  const limiter = new LogRateLimiter(settings.logRateLimit, (count) =>
    emit('log-message', serverId, {
      level: 'warning',
      logger: 'search-mcp',
      data: `Search MCP dropped ${count} log messages from '${serverId}' (over ${settings.logRateLimit.perSecond}/s)`,
    }),
  );
  client.setNotificationHandler(notification('notifications/message'), ({ params }) => {
    if (!params || !isLoggingLevel(params.level)) return;
    if (!limiter.take()) return;
    emit('log-message', serverId, params as LogMessageParams);
  });
  client.setNotificationHandler(notification('notifications/resources/updated'), ({ params }) => {
    if (typeof params?.uri === 'string') emit('resource-updated', serverId, params as { uri: string });
  });
  client.setNotificationHandler(notification('notifications/resources/list_changed'), () => {
    emit('resources-changed', serverId);
  });
  client.setNotificationHandler(notification('notifications/prompts/list_changed'), () => {
    emit('prompts-changed', serverId);
  });
  client.setNotificationHandler(notification('notifications/tasks/status'), ({ params }) => {
    if (typeof params?.taskId !== 'string' || typeof params.status !== 'string') return;
    emit('task-status', serverId, params as TaskStatusParams);
  });
  client.setNotificationHandler(notification('notifications/elicitation/complete'), ({ params }) => {
    if (isRecord(params) && typeof params.elicitationId === 'string') {
      emit('elicitation-complete', serverId, { ...params, elicitationId: params.elicitationId });
    }
  });
  return () => limiter.close();
}

export type LogMessageParams = { level: LoggingLevel; logger?: string; data: unknown } & Record<string, unknown>;
export type TaskStatusParams = { taskId: string; status: string } & Record<string, unknown>;

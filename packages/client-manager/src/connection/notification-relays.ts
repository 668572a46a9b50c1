import type { Client as ModernClient } from '@modelcontextprotocol/client';
import { isLoggingLevel, isRecord } from '@search-mcp/shared';
import { z } from 'zod';
import type { LogMessageParams, TaskStatusParams } from '../backend-notification-params.js';
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
const looseParams = z.looseObject({});

/** The schema of one notification method with params as sent (what the 1.x client's handler registry takes). */
export function notificationSchema<M extends string>(method: M) {
  return z.object({ method: z.literal(method), params: looseParams.optional() });
}

/** Registers the handler of one notification method; it gets the params as sent. */
export type OnNotification = (method: string, handle: (params: Record<string, unknown> | undefined) => void) => void;

export interface ModernRelaySettings extends NotificationRelaySettings {
  /** `notifications/tools/list_changed` (from a `subscriptions/listen` stream): re-list the tools. */
  onToolListChanged: () => void;
}

/**
 * The same relays on a 2026-07-28 backend's (2.x) client, plus the tool list refresh. Such a backend sends change
 * notifications only on a `subscriptions/listen` stream (`ListenStream`) and log messages only within a request
 * that asked for them; the 2.x client hands both to the same handlers.
 * @returns stops the relays' timers (call when the connection ends)
 */
export function installModernNotificationRelays(client: ModernClient, settings: ModernRelaySettings): () => void {
  const on: OnNotification = (method, handle) =>
    client.setNotificationHandler(method, { params: looseParams }, (params) => handle(withoutSubscriptionId(params)));
  on('notifications/tools/list_changed', () => settings.onToolListChanged());
  return relayNotifications(on, settings);
}

const subscriptionIdKey = 'io.modelcontextprotocol/subscriptionId';

/** Params without the listen stream's id in `_meta`: it names our stream to the backend, nothing past us. */
function withoutSubscriptionId(params: Record<string, unknown>): Record<string, unknown> {
  const meta = params._meta;
  if (!isRecord(meta) || !(subscriptionIdKey in meta)) return params;
  const { [subscriptionIdKey]: _stream, ...rest } = meta;
  const { _meta, ...others } = params;
  return Object.keys(rest).length > 0 ? { ...others, _meta: rest } : others;
}

/**
 * Turns a backend's notifications into manager events: log messages (rate-limited), resource updates and list
 * changes, prompt list changes, task status, URL elicitation completion. Malformed ones are ignored. `on` registers
 * a handler on the era's client (the 2025 one's is in `legacy/legacy-backend-client.ts`).
 * @returns stops the relays' timers (call when the connection ends)
 */
export function relayNotifications(on: OnNotification, settings: NotificationRelaySettings): () => void {
  const { serverId, emit } = settings;
  const limiter = new LogRateLimiter(settings.logRateLimit, (count) =>
    emit('log-message', serverId, {
      level: 'warning',
      logger: 'search-mcp',
      data: `Search MCP dropped ${count} log messages from '${serverId}' (over ${settings.logRateLimit.perSecond}/s)`,
    }),
  );
  on('notifications/message', (params) => {
    if (!params || !isLoggingLevel(params.level)) return;
    if (!limiter.take()) return;
    emit('log-message', serverId, params as LogMessageParams);
  });
  on('notifications/resources/updated', (params) => {
    if (typeof params?.uri === 'string') emit('resource-updated', serverId, params as { uri: string });
  });
  on('notifications/resources/list_changed', () => {
    emit('resources-changed', serverId);
  });
  on('notifications/prompts/list_changed', () => {
    emit('prompts-changed', serverId);
  });
  on('notifications/tasks/status', (params) => {
    if (typeof params?.taskId !== 'string' || typeof params.status !== 'string') return;
    emit('task-status', serverId, params as TaskStatusParams);
  });
  on('notifications/elicitation/complete', (params) => {
    if (isRecord(params) && typeof params.elicitationId === 'string') {
      emit('elicitation-complete', serverId, { ...params, elicitationId: params.elicitationId });
    }
  });
  return () => limiter.close();
}

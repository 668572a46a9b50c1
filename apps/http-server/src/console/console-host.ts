import type { ConfigReload } from '@search-mcp/runtime';
import type { OAuthResourceConfig, SecretRedactor, ServerState, ServerStatus } from '@search-mcp/shared';
import type { FastifyInstance } from 'fastify';
import { FailedAuthenticationLimiter } from '../access/failed-authentication-limiter.js';
import type { HttpRuntime } from '../http-app-options.js';
import { pathOf } from '../request-context.js';
import { type ActivityStreamEvent, registerActivityStreamRoute } from '../rest/activity-stream-route.js';
import { registerConfigRoute } from '../rest/config-route.js';
import { registerConsoleLogRoutes } from '../rest/console-log-routes.js';
import type { ZodFastifyInstance } from '../rest/rest-route-context.js';
import { registerServerActionRoutes } from '../rest/server-action-routes.js';
import { type ActivityRecord, toActivityRecord } from './activity-record.js';
import { BoundedLog } from './bounded-log.js';
import { type ConsoleEvent, reloadEvent, reloadFailedEvent, serverStateEvent } from './console-event.js';
import { consolePath, registerConsoleStaticRoute } from './console-static-route.js';
import { consoleSecurityHeaders } from './console-headers.js';
import { registerConsoleSessionRoute } from './console-session-route.js';
import { registerConsoleSettingsRoute } from './console-settings-route.js';
import { SignInCodes } from './sign-in-codes.js';

/** Kept in memory for the console (docs/console.md). */
export const consoleLimits = { activityRecords: 500, events: 200 } as const;

/** What the host (`search-mcp-http`, `search-mcp ui`) tells the console and asks of it. */
export interface ConsoleHost {
  /** A one-time code for `/ui/#code=…` that `POST /ui/session` trades for `token` (once, within 10 minutes). */
  createSignInCode(token: string): string;
  /** A hot reload was applied (`onReloaded` of the reloader). */
  reloaded(reload: ConfigReload): void;
  /** A hot reload changed nothing because the file could not be used (`onReloadFailed`). */
  reloadFailed(reason: string): void;
}

export interface ConsoleOptions {
  runtime: HttpRuntime;
  redactor: SecretRedactor;
  /**
   * Wrong sign-in codes allowed per client address and minute, in a limiter of the console's own: bad codes never
   * lock the address out of the API, nor wrong API tokens out of the sign-in (on loopback every local client shares
   * one address).
   */
  failedSignInLimitPerMinute: number;
  version: string;
  oauth?: OAuthResourceConfig;
  /** The console's built files; undefined: not part of this build. */
  directory: string | undefined;
  configPath?: string;
}

/**
 * The web console's server side (docs/console.md): its files and sign-in under `/ui` (public: the pages hold no
 * data, every API call needs the caller's token), and the admin routes it uses (server actions, events, activity and
 * its live stream, the masked config), fed by the runtime's audit feed and the manager's state changes.
 */
export async function registerConsole(app: ZodFastifyInstance, options: ConsoleOptions): Promise<ConsoleHost> {
  const { runtime, redactor } = options;
  const activity = new BoundedLog<ActivityRecord>(consoleLimits.activityRecords);
  const events = new BoundedLog<ConsoleEvent>(consoleLimits.events);
  // Only heard live (`event: server`); `GET /v1/servers` has the current ones.
  const statuses = new BoundedLog<ServerStatus>(1);
  const codes = new SignInCodes();

  const root = app as unknown as FastifyInstance;
  root.addHook('onSend', async (request, reply, payload) => {
    // The path: `/ui?x` is the console too.
    const path = pathOf(request);
    if (path === consolePath || path.startsWith(`${consolePath}/`)) {
      reply.headers(consoleSecurityHeaders);
    }
    return payload;
  });
  await registerConsoleStaticRoute(root, options.directory);
  registerConsoleSettingsRoute(app, {
    version: options.version,
    ...(options.oauth ? { oauth: options.oauth } : {}),
  });
  registerConsoleSessionRoute(app, codes, new FailedAuthenticationLimiter(options.failedSignInLimitPerMinute));

  // What the activity page shows: calls and searches, not the reads of lists (the console's own polling among them).
  const unsubscribeAudit = runtime.audit?.subscribe((record) => {
    if (record.event === 'rest' && record.toolKey === undefined && record.queries === undefined) return;
    activity.add(redactor.redactDeep(toActivityRecord(record)));
  });
  const manager = runtime.manager;
  const onStatusChange = (status: ServerStatus, previous: ServerState) => {
    if (status.state === previous) return;
    events.add(serverStateEvent(status, previous));
    const { pid: _pid, ...shown } = status;
    statuses.add(shown);
  };
  manager?.on('status-change', onStatusChange);
  root.addHook('onClose', async () => {
    unsubscribeAudit?.();
    manager?.off('status-change', onStatusChange);
  });

  registerConsoleLogRoutes(app, { activity, events });
  registerActivityStreamRoute(app, {
    redactor,
    subscribe: (send: (event: ActivityStreamEvent, data: unknown) => void) => {
      const stops = [
        activity.subscribe((record) => send('call', record)),
        statuses.subscribe((status) => send('server', status)),
        events.subscribe((event) => {
          if (event.kind !== 'server-state') send('reload', event);
        }),
      ];
      return () => {
        for (const stop of stops) stop();
      };
    },
  });
  registerConfigRoute(app, {
    config: () => runtime.catalog.config,
    ...(options.configPath !== undefined ? { configPath: options.configPath } : {}),
    redactor,
  });
  if (manager) {
    registerServerActionRoutes(app, { catalog: runtime.catalog, servers: manager, replicas: runtime.replicas });
  }

  return {
    createSignInCode: (token) => codes.create(token),
    reloaded: (reload) => events.add(reloadEvent(reload)),
    reloadFailed: (reason) => events.add(reloadFailedEvent(reason)),
  };
}

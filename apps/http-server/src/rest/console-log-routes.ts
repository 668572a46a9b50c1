import { z } from 'zod';
import { assertAdmin } from '../access/admin-access.js';
import type { ActivityRecord } from '../console/activity-record.js';
import type { BoundedLog } from '../console/bounded-log.js';
import type { ConsoleEvent } from '../console/console-event.js';
import { errorResponses } from '../openapi/documented-responses.js';
import type { ZodFastifyInstance } from './rest-route-context.js';

export interface ConsoleLogRoutesContext {
  activity: BoundedLog<ActivityRecord>;
  events: BoundedLog<ConsoleEvent>;
}

const limitQuery = (most: number) =>
  z.object({
    limit: z.coerce.number().int().min(1).max(most).optional().describe(`How many, newest kept (at most ${most})`),
  });

const activityRecordSchema = z
  .object({
    ts: z.string(),
    requestId: z.string(),
    event: z.enum(['tool_discovery', 'tool_execute', 'tools/call', 'rest']),
    toolKey: z.string().optional(),
    serverId: z.string().optional(),
    projectId: z.string().optional(),
    caller: z.string().describe('The OAuth subject, else the token id, else "anonymous"'),
    queries: z.array(z.string()).optional(),
    resultCount: z.number().int().optional(),
    durationMs: z.number(),
    outcome: z.enum(['ok', 'tool_error', 'input_required', 'error', 'cancelled']),
    errorCode: z.string().optional(),
  })
  .describe('An audit record as the console shows it: argument values are never recorded');

const consoleEventSchema = z.object({
  at: z.string(),
  kind: z.enum(['reload', 'reload-failed', 'server-state']),
  servers: z
    .object({ added: z.array(z.string()), removed: z.array(z.string()), changed: z.array(z.string()) })
    .optional(),
  notApplied: z.array(z.string()).optional(),
  error: z.string().optional(),
  serverId: z.string().optional(),
  from: z.string().optional(),
  to: z.string().optional(),
});

/**
 * `GET /v1/events` (hot reloads and server state changes) and `GET /v1/activity` (the latest calls and searches),
 * admin only, newest last (docs/console.md, "REST API used by the console"). Both are kept in memory only.
 */
export function registerConsoleLogRoutes(app: ZodFastifyInstance, context: ConsoleLogRoutesContext): void {
  app.get(
    '/v1/events',
    {
      schema: {
        summary: 'Hot reloads and backend state changes, newest last (admin)',
        querystring: limitQuery(context.events.capacity),
        response: { 200: z.object({ events: z.array(consoleEventSchema) }), ...errorResponses() },
      },
    },
    async (request) => {
      assertAdmin(request, 'The event log');
      return { events: context.events.latest(request.query.limit) };
    },
  );
  app.get(
    '/v1/activity',
    {
      schema: {
        summary: 'The latest tool calls and searches, newest last (admin)',
        querystring: limitQuery(context.activity.capacity),
        response: { 200: z.object({ records: z.array(activityRecordSchema) }), ...errorResponses() },
      },
    },
    async (request) => {
      assertAdmin(request, 'The activity log');
      return { records: context.activity.latest(request.query.limit) };
    },
  );
}

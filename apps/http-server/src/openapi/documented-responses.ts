import type { z } from 'zod';
import { errorBodySchema } from '../rest/rest-schemas.js';

/** What each status means in this API (apps/http-server/README.md, "Status codes"); the OpenAPI responses' text. */
export const statusDescriptions = {
  200: 'The answer (for a tool call: it ran; `success: false` when the tool reported an error)',
  400: 'Invalid request or arguments',
  401: 'Missing or unknown token',
  403: 'Forbidden: tool disabled, project not allowed for the token, or foreign Host/Origin',
  404: 'Not found, or not visible to the caller',
  408: 'The tool call timed out',
  409: 'Conflicts with the config (e.g. an action on a server disabled there)',
  413: 'Body too large',
  429: 'Rate limited (see Retry-After)',
  500: 'Internal error',
  502: 'The backend MCP server reported an error',
  503: 'Backend not running, or Search MCP is shutting down',
} as const;

export type DocumentedStatus = keyof typeof statusDescriptions;

/** Every request can meet these before its route runs (authentication, rate limit, Host/Origin, body parsing). */
export const commonErrorStatuses: readonly DocumentedStatus[] = [400, 401, 403, 413, 429, 503];

/** `{ [status]: { description, content: { 'application/json': { schema } } } }` for a route's `response`. */
export function documentedResponses<Schema extends z.ZodType>(
  schema: Schema,
  statuses: readonly DocumentedStatus[],
): Record<number, { description: string; content: { 'application/json': { schema: Schema } } }> {
  return Object.fromEntries(
    statuses.map((status) => [
      status,
      { description: statusDescriptions[status], content: { 'application/json': { schema } } },
    ]),
  );
}

/** The error responses of a route: the common ones plus `extra`, each `{ success: false, error, code }`. */
export function errorResponses(...extra: DocumentedStatus[]) {
  return documentedResponses(errorBodySchema, [...new Set([...commonErrorStatuses, ...extra])].sort());
}

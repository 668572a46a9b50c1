/**
 * Where a request names its token and projects (docs/projects-and-tokens.md, "The project of a request"): headers,
 * and `params._meta` of `/mcp` messages.
 */
import { isRecord } from '@search-mcp/shared';
import type { FastifyRequest } from 'fastify';

export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (typeof header !== 'string') return undefined;
  const match = /^Bearer\s+(.+)$/i.exec(header.trim());
  return match?.[1];
}

/** The `X-Project-Id` header, when it names one. */
export function headerProject(request: FastifyRequest): string | undefined {
  const header = request.headers['x-project-id'];
  const project = Array.isArray(header) ? header[0] : header;
  return project !== undefined && project !== '' ? project : undefined;
}

function metaOf(message: unknown): Record<string, unknown> | undefined {
  if (!isRecord(message) || !isRecord(message.params)) return undefined;
  const meta = message.params._meta;
  return isRecord(meta) ? meta : undefined;
}

/** `params._meta.projectId` of every JSON-RPC message of a `/mcp` body. */
export function metaProjects(body: unknown): string[] {
  const messages = Array.isArray(body) ? body : [body];
  return messages.flatMap((message) => {
    const project = metaOf(message)?.projectId;
    return typeof project === 'string' ? [project] : [];
  });
}

/** `params._meta.token` of a JSON-RPC message (or the first of a batch) on `/mcp`. */
export function metaToken(body: unknown): string | undefined {
  const token = metaOf(Array.isArray(body) ? body[0] : body)?.token;
  return typeof token === 'string' && token !== '' ? token : undefined;
}

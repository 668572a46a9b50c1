import type { AuditSink } from '@search-mcp/runtime';
import { noSecrets, type SecretRedactor } from '@search-mcp/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { callerOf, pathOf } from '../request-context.js';

/** One audit line per REST call, whatever its outcome (MCP calls are audited by the meta-tools server). */
export interface RestAudit {
  /** Writes the request's line (once; later calls for the same request do nothing). */
  record(request: FastifyRequest, status: number): void;
}

const audited = new WeakSet<FastifyRequest>();

function isAuditedPath(path: string): boolean {
  return (path.startsWith('/v1/') && path !== '/v1/openapi.json') || path === '/catalog/search';
}

/**
 * The REST audit (apps/http-server/README.md, "Other defaults"): written when the response is sent, or by a route whose
 * client went away. Argument values are never recorded; what is recorded passes the secret redactor (a query may quote
 * a token).
 */
export function registerRestAudit(
  app: FastifyInstance,
  sink: AuditSink | undefined,
  redactor: SecretRedactor = noSecrets,
): RestAudit {
  const audit: RestAudit = {
    record(request, status) {
      if (!sink || audited.has(request) || !isAuditedPath(pathOf(request))) return;
      audited.add(request);
      const caller = callerOf(request);
      const fields = request.auditFields ?? {};
      const failed = status >= 400 && fields.outcome !== 'cancelled';
      sink.record(
        redactor.redactDeep({
          ts: new Date().toISOString(),
          requestId: String(request.id),
          event: 'rest',
          durationMs: Math.round((performance.now() - (request.receivedAt ?? performance.now())) * 10) / 10,
          ...(caller.projectId !== undefined ? { projectId: caller.projectId } : {}),
          ...(caller.tokenId !== undefined ? { tokenId: caller.tokenId } : {}),
          ...(caller.subject !== undefined ? { subject: caller.subject } : {}),
          ...fields,
          outcome: failed ? 'error' : (fields.outcome ?? 'ok'),
          ...(failed && !fields.errorCode ? { errorCode: `HTTP_${status}` } : {}),
        }),
      );
    },
  };
  app.addHook('onResponse', async (request, reply) => {
    audit.record(request, reply.statusCode);
  });
  return audit;
}

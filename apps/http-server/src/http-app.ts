import cors from '@fastify/cors';
import rateLimit from '@fastify/rate-limit';
import type { Caller } from '@search-mcp/catalog';
import type { AuditRecord, SearchMcpRuntime } from '@search-mcp/meta-tools';
import type { Logger } from '@search-mcp/shared';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import { hostNameOf, loopbackHostNames } from './allowed-hosts.js';
import { FailedAuthenticationLimiter } from './failed-authentication-limiter.js';
import { errorBody, toHttpError } from './http-errors.js';
import { registerMcpEndpoint, type McpEndpoint } from './mcp-endpoint.js';
import { openApiDocument } from './openapi-document.js';
import { registerRestRoutes } from './rest-routes.js';
import { TokenVerifier, type AccessToken, type VerifiedToken } from './token-verifier.js';

export interface HttpAppOptions {
  runtime: SearchMcpRuntime;
  logger: Logger;
  /** Accepted tokens (from the config, or the generated one). */
  tokens: readonly AccessToken[];
  /** Let requests without a token in (as no token, no project limit). */
  allowAnonymous: boolean;
  stateless?: boolean;
  /** Default 30 minutes. */
  sessionIdleTimeoutMs?: number;
  /** Default 100. */
  maxSessions?: number;
  /** Largest request body. Default 1 MiB. */
  bodyLimitBytes?: number;
  /** Requests per minute per token (per address without one). 0 turns it off. Default 6,000. */
  rateLimitPerMinute?: number;
  /** Browser origins allowed (CORS and the Origin check). Default none: CORS off. */
  corsOrigins?: readonly string[];
  /**
   * Host names the `Host` header may name (DNS-rebinding protection). Default: this machine's loopback names.
   * `null` turns the check off (a server bound to every interface whose names are not known).
   */
  allowedHosts?: readonly string[] | null;
  /** Failed authentications per minute per client address before 429. Default 30. */
  failedAuthenticationLimitPerMinute?: number;
  version: string;
}

export interface HttpApp {
  app: FastifyInstance;
  mcp: McpEndpoint;
}

declare module 'fastify' {
  interface FastifyRequest {
    verifiedToken?: VerifiedToken;
    requestedProject?: string;
    /** performance.now() when the request arrived, for audit durations. */
    receivedAt?: number;
    /** What a REST route knows for its audit line (tool key, queries, result count, outcome, error code). */
    auditFields?: Partial<
      Pick<AuditRecord, 'toolKey' | 'serverId' | 'queries' | 'resultCount' | 'outcome' | 'errorCode'>
    >;
  }
}

const startedAt = Date.now();

/**
 * The HTTP app: Streamable HTTP MCP at `/mcp`, REST v1, `/catalog/search`, health and OpenAPI. It only wires the
 * libraries: every search and tool decision is the catalog's, every MCP behaviour the meta-tools server's.
 */
export async function buildHttpApp(options: HttpAppOptions): Promise<HttpApp> {
  const { runtime, logger } = options;
  const verifier = new TokenVerifier(options.tokens);
  const failedAuthentications = new FailedAuthenticationLimiter(options.failedAuthenticationLimitPerMinute ?? 30);
  const corsOrigins = new Set(options.corsOrigins ?? []);
  const bodyLimit = options.bodyLimitBytes ?? 1024 * 1024;
  const app = Fastify({ logger: false, bodyLimit, trustProxy: false });
  // Fastify refuses an empty body sent as JSON; MCP clients do that on DELETE /mcp (end of session) and GET.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit }, (_request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') return done(null, undefined);
    try {
      done(null, JSON.parse(text));
    } catch {
      done(Object.assign(new Error('Body is not valid JSON'), { statusCode: 400 }), undefined);
    }
  });

  // A web page must not drive local tools: the Host header must name this machine (DNS rebinding), and a browser's
  // Origin must be a configured one or this machine (CSRF). Both are refused before anything else.
  const allowedHosts =
    options.allowedHosts === null
      ? undefined
      : new Set((options.allowedHosts ?? loopbackHostNames).map((host) => host.toLowerCase()));
  app.addHook('onRequest', async (request, reply) => {
    request.receivedAt = performance.now();
    if (allowedHosts) {
      const host = hostNameOf(request.headers.host ?? '', false);
      if (host === undefined || !allowedHosts.has(host)) {
        return reply
          .code(403)
          .send(errorBody(`Host ${request.headers.host ?? '(none)'} is not allowed`, 'FORBIDDEN_HOST'));
      }
    }
    const origin = request.headers.origin;
    if (origin === undefined || corsOrigins.has(origin)) return;
    const originHost = hostNameOf(origin, true);
    const trusted = allowedHosts
      ? originHost !== undefined && allowedHosts.has(originHost)
      : sameOrigin(origin, request.headers.host);
    if (!trusted) return reply.code(403).send(errorBody(`Origin ${origin} is not allowed`, 'FORBIDDEN_ORIGIN'));
  });

  if (corsOrigins.size > 0) {
    await app.register(cors, {
      origin: [...corsOrigins],
      exposedHeaders: ['Mcp-Session-Id', 'Retry-After'],
      allowedHeaders: [
        'Authorization',
        'Content-Type',
        'Mcp-Session-Id',
        'Mcp-Protocol-Version',
        'X-Project-Id',
        'Last-Event-ID',
      ],
    });
  }

  const publicRoutes = new Set(['/', '/v1/openapi.json', '/tools', '/tools/call', '/tools/search']);
  app.addHook('preHandler', async (request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    if (publicRoutes.has(path) || request.method === 'OPTIONS') return;
    const projectHeader = request.headers['x-project-id'];
    const project = Array.isArray(projectHeader) ? projectHeader[0] : projectHeader;
    if (project !== undefined && project !== '') request.requestedProject = project;
    const presented = bearerToken(request) ?? metaToken(request.body);
    if (presented === undefined) {
      if (options.allowAnonymous) return;
      return reply
        .code(401)
        .header('www-authenticate', 'Bearer')
        .send(errorBody('Missing token: send Authorization: Bearer <token>', 'AUTHENTICATION_ERROR'));
    }
    const retryAfter = failedAuthentications.retryAfterSeconds(request.ip);
    if (retryAfter > 0) {
      return reply
        .code(429)
        .header('retry-after', String(retryAfter))
        .send(errorBody(`Too many failed authentications; retry after ${retryAfter} s`, 'RATE_LIMIT_EXCEEDED'));
    }
    const token = verifier.verify(presented);
    if (!token) {
      failedAuthentications.recordFailure(request.ip);
      return reply
        .code(401)
        .header('www-authenticate', 'Bearer error="invalid_token"')
        .send(errorBody('Unknown token', 'AUTHENTICATION_ERROR'));
    }
    request.verifiedToken = token;
    if (token.projects) {
      // Every project the request names (header, and _meta.projectId of each JSON-RPC message) must be the token's.
      for (const project of [request.requestedProject, ...metaProjects(request.body)]) {
        if (project !== undefined && !token.projects.includes(project)) {
          return reply
            .code(403)
            .send(errorBody(`This token may not be used for project '${project}'`, 'AUTHORIZATION_ERROR'));
        }
      }
    }
  });

  const limit = options.rateLimitPerMinute ?? 6000;
  if (limit > 0) {
    await app.register(rateLimit, {
      global: true,
      max: limit,
      timeWindow: 60_000,
      hook: 'preHandler',
      keyGenerator: (request) => (request.verifiedToken ? `token:${request.verifiedToken.id}` : `ip:${request.ip}`),
      allowList: (request) => request.url === '/',
      errorResponseBuilder: (_request, context) => ({
        statusCode: 429,
        ...errorBody(
          `Rate limit of ${context.max} requests per minute exceeded; retry after ${Math.ceil(context.ttl / 1000)} s`,
          'RATE_LIMIT_EXCEEDED',
        ),
      }),
    });
  }

  const callerOf = (request: FastifyRequest): Caller => ({
    ...(request.verifiedToken ? { tokenId: request.verifiedToken.id } : {}),
    ...(request.requestedProject !== undefined ? { projectId: request.requestedProject } : {}),
  });

  // One audit line per REST call, whatever its outcome (MCP calls are audited by the meta-tools server).
  const audited = (path: string) =>
    (path.startsWith('/v1/') && path !== '/v1/openapi.json') || path === '/catalog/search';
  app.addHook('onResponse', async (request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    if (!runtime.audit || !audited(path)) return;
    const caller = callerOf(request);
    const fields = request.auditFields ?? {};
    runtime.audit.record({
      ts: new Date().toISOString(),
      requestId: String(request.id),
      event: 'rest',
      durationMs: Math.round((performance.now() - (request.receivedAt ?? performance.now())) * 10) / 10,
      ...(caller.projectId !== undefined ? { projectId: caller.projectId } : {}),
      ...(caller.tokenId !== undefined ? { tokenId: caller.tokenId } : {}),
      ...fields,
      outcome: reply.statusCode >= 400 ? 'error' : (fields.outcome ?? 'ok'),
      ...(reply.statusCode >= 400 && !fields.errorCode ? { errorCode: `HTTP_${reply.statusCode}` } : {}),
    });
  });

  app.setErrorHandler((error, request, reply) => {
    const { status, body } = toHttpError(error);
    request.auditFields = { ...request.auditFields, errorCode: body.code };
    if (status >= 500)
      logger.error('request failed', {
        method: request.method,
        path: request.url.split('?')[0],
        status,
        error: body.error,
      });
    if (body.code === 'RATE_LIMIT_EXCEEDED' && !reply.hasHeader('retry-after')) reply.header('retry-after', '60');
    return reply.code(status).send(body);
  });
  app.setNotFoundHandler((request, reply) =>
    reply.code(404).send(errorBody(`No route ${request.method} ${request.url.split('?')[0]}`, 'NOT_FOUND')),
  );

  app.addHook('onResponse', async (request, reply) => {
    // Never the query string or headers: they may carry tokens.
    logger.debug('request', {
      method: request.method,
      path: request.url.split('?')[0],
      status: reply.statusCode,
      ms: Math.round(reply.elapsedTime),
    });
  });

  app.get('/', async () => ({
    status: 'ok',
    message: 'Search MCP HTTP server',
    version: options.version,
    uptime: Math.round((Date.now() - startedAt) / 1000),
    timestamp: new Date().toISOString(),
  }));
  app.get('/v1/openapi.json', async () => openApiDocument(options.version));

  registerRestRoutes(app, { runtime, callerOf });
  const mcp = registerMcpEndpoint(app, {
    runtime,
    logger,
    stateless: options.stateless ?? false,
    sessionIdleTimeoutMs: options.sessionIdleTimeoutMs ?? 30 * 60_000,
    maxSessions: options.maxSessions ?? 100,
    callerOf,
  });
  app.addHook('onClose', async () => {
    await mcp.closeAll();
  });
  return { app, mcp };
}

function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (typeof header !== 'string') return undefined;
  const match = /^Bearer\s+(.+)$/i.exec(header.trim());
  return match?.[1];
}

/** `params._meta.projectId` of every JSON-RPC message of a `/mcp` body. */
function metaProjects(body: unknown): string[] {
  const messages = Array.isArray(body) ? body : [body];
  return messages.flatMap((message) => {
    const project = (message as { params?: { _meta?: { projectId?: unknown } } } | undefined)?.params?._meta?.projectId;
    return typeof project === 'string' ? [project] : [];
  });
}

/** `params._meta.token` of a JSON-RPC message (or the first of a batch) on `/mcp`. */
function metaToken(body: unknown): string | undefined {
  const message = Array.isArray(body) ? body[0] : body;
  const token = (message as { params?: { _meta?: { token?: unknown } } } | undefined)?.params?._meta?.token;
  return typeof token === 'string' && token !== '' ? token : undefined;
}

function sameOrigin(origin: string, host: string | undefined): boolean {
  if (!host) return false;
  try {
    return new URL(origin).host === host;
  } catch {
    return false;
  }
}

import cors from '@fastify/cors';
import { createMemoryClusterStore } from '@search-mcp/cluster';
import { errorMessage, noSecrets } from '@search-mcp/shared';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { registerAuthentication } from './access/authentication-hook.js';
import { FailedAuthenticationLimiter } from './access/failed-authentication-limiter.js';
import { registerHostOriginGuard } from './access/host-origin-guard.js';
import type { OAuthAuthentication } from './access/oauth-authentication.js';
import { createOAuthTokenVerifier } from './access/oauth-resource/index.js';
import { ProtectedResource, protectedResourceMetadataPath } from './access/protected-resource.js';
import { registerProtectedResourceRoute } from './access/protected-resource-route.js';
import { registerRateLimit } from './access/rate-limit.js';
import { TokenVerifier } from './access/token-verifier.js';
import { registerOAuthCallbackRoute } from './backend-oauth/oauth-callback-route.js';
import { ReplicaCallbackRelay } from './backend-oauth/replica-callback-relay.js';
import { type ConsoleHost, registerConsole } from './console/console-host.js';
import { defaultConsoleDirectory } from './console/console-files.js';
import { oauthCallbackPath } from './backend-oauth/oauth-redirect-url.js';
import { defaultMaxSessionsPerToken, type HttpAppOptions, httpAppDefaults } from './http-app-options.js';
import { errorBody, toHttpError } from './http-errors.js';
import { ActivityCounter } from './lifecycle/activity-counter.js';
import { drainBeforeClose } from './lifecycle/drain-before-close.js';
import { InFlightRequests } from './lifecycle/in-flight-requests.js';
import { Readiness } from './lifecycle/readiness.js';
import { type McpEndpoint, registerMcpEndpoint } from './mcp/mcp-endpoint.js';
import { registerOpenApiDocument, registerOpenApiRoute } from './openapi/openapi-document.js';
import { pathOf } from './request-context.js';
import { registerCatalogSearchRoute } from './rest/catalog-search-route.js';
import { registerHealthRoute, registerLivenessRoute } from './rest/health-route.js';
import { legacyRedirects, registerLegacyRedirects } from './rest/legacy-redirects.js';
import { registerQuarantineRoutes } from './rest/quarantine-routes.js';
import { rankToolsWithCatalog } from './rest/rank-tools-with-catalog.js';
import { registerReadinessRoute } from './rest/readiness-route.js';
import { registerRestAudit } from './rest/rest-audit.js';
import { registerServerRoutes } from './rest/server-routes.js';
import { registerStatsRoute } from './rest/stats-route.js';
import { registerToolCallRoute } from './rest/tool-call-route.js';
import { registerToolListRoutes } from './rest/tool-list-routes.js';
import { registerToolSearchRoute } from './rest/tool-search-route.js';
import { registerMetricsRoute } from './telemetry/metrics-route.js';
import { registerTraceContext } from './telemetry/trace-context-hook.js';
import { packageVersion } from './version.js';

export type { HttpAppOptions, HttpRuntime } from './http-app-options.js';

export interface HttpApp {
  app: FastifyInstance;
  mcp: McpEndpoint;
  /** The web console at `/ui` (docs/console.md): sign-in codes, and the reload events the host reports. */
  console: ConsoleHost;
  /**
   * Shuts the app down gracefully: when a probe watches `/readyz`, it first drains for `drainMs` (readiness 503,
   * requests still served); then new requests get 503, calls in flight get `shutdownGraceMs` to finish, and those
   * still running are answered (REST: 503 JSON; MCP: a JSON-RPC error) before the server closes. Idempotent.
   */
  close(): Promise<void>;
}

const shuttingDownMessage = 'Search MCP is shutting down; retry later';
/** Answered through the shutdown's grace period (docs/scale-out.md, "Probes and drain"): probes must see it. */
const probePaths = new Set(['/readyz', '/healthz']);
/** How often a closing server looks for connections that have fallen idle (see `close`). */
const idleSweepMs = 50;
/** How long a closing server lets connections end by themselves once every request is answered. */
const lingerAfterAnswersMs = 1000;

/** `auth.oauth` as the hook uses it: the resource, a verifier of its tokens, its roles. */
function oauthAuthentication(options: HttpAppOptions): OAuthAuthentication | undefined {
  const config = options.oauth;
  if (!config) return undefined;
  return {
    resource: new ProtectedResource(config, options.publicUrl),
    verifier: createOAuthTokenVerifier({
      issuer: config.issuer,
      // Each request names the audience it needs (this resource's URL as that request reached it): see the hook.
      audiences: config.audience ?? [],
      ...(config.jwksUri !== undefined ? { jwksUri: config.jwksUri } : {}),
      ...(config.introspection ? { introspection: config.introspection } : {}),
      ...(config.requiredScopes ? { requiredScopes: config.requiredScopes } : {}),
      ...(config.claims ? { claims: config.claims } : {}),
      ...(options.oauthFetch ? { fetch: options.oauthFetch } : {}),
    }),
    ...(config.roles ? { roles: config.roles } : {}),
    logger: options.logger.child({ component: 'oauth-resource' }),
  };
}

/**
 * The HTTP app: Streamable HTTP MCP at `/mcp`, REST v1, `/catalog/search`, health and OpenAPI. It only wires the
 * libraries: every search and tool decision is the catalog's, every MCP behaviour the meta-tools server's.
 */
export async function buildHttpApp(options: HttpAppOptions): Promise<HttpApp> {
  const { runtime, logger } = options;
  const redactor = options.redactor ?? noSecrets;
  const version = options.version ?? packageVersion;
  const bodyLimit = options.bodyLimitBytes ?? httpAppDefaults.bodyLimitBytes;
  const maxSessions = options.maxSessions ?? httpAppDefaults.maxSessions;
  // Shared by every replica when the host passes the Redis store; else this app's own, closed with it.
  const clusterStore = options.clusterStore ?? createMemoryClusterStore();
  const activity = new ActivityCounter();
  const inFlight = new InFlightRequests(activity);
  // Without a store passed in, the app's own in-process one always answers: only a shared store's state is reported.
  const readiness = new Readiness(options.clusterStore, logger);
  let shuttingDown = false;

  const app = Fastify({ logger: false, bodyLimit, trustProxy: false }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
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

  app.addHook('onRequest', async (request, reply) => {
    request.receivedAt = performance.now();
    // The probes answer to the end: /readyz says `shutting-down`, /healthz stays 200 until the process stops.
    if (shuttingDown && !probePaths.has(pathOf(request))) {
      return reply
        .code(503)
        .header('connection', 'close')
        .header('retry-after', '5')
        .send(errorBody(shuttingDownMessage, 'SHUTTING_DOWN'));
    }
    // While draining, every answer ends its connection: a client's next request opens a new one, which the balancer
    // sends to another replica (a kept-alive connection would stay on this one until it closes).
    if (readiness.draining) reply.header('connection', 'close');
  });
  const corsOrigins = new Set(options.corsOrigins ?? []);
  registerHostOriginGuard(app, {
    corsOrigins,
    ...(options.allowedHosts !== undefined ? { allowedHosts: options.allowedHosts } : {}),
  });
  if (corsOrigins.size > 0) {
    await app.register(cors, {
      origin: [...corsOrigins],
      exposedHeaders: ['Mcp-Session-Id', 'Retry-After', 'WWW-Authenticate'],
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
  const oauth = oauthAuthentication(options);
  if (oauth) registerProtectedResourceRoute(app as unknown as FastifyInstance, oauth.resource);
  const failedAuthentications = new FailedAuthenticationLimiter(
    options.failedAuthenticationLimitPerMinute ?? httpAppDefaults.failedAuthenticationLimitPerMinute,
  );
  registerAuthentication(app, {
    verifier: new TokenVerifier(options.tokens),
    ...(oauth ? { oauth } : {}),
    // The console's files and sign-in are public: its pages hold no data, every API call needs a token.
    publicPathPrefixes: [...(oauth ? [protectedResourceMetadataPath] : []), '/ui/'],
    failedAuthentications,
    allowAnonymous: options.allowAnonymous,
    // The OAuth callback is a browser's redirect: the `state` it carries authenticates it, not a token.
    publicPaths: new Set([
      '/',
      '/healthz',
      '/readyz',
      '/ui',
      '/v1/openapi.json',
      oauthCallbackPath,
      ...legacyRedirects.map(([from]) => from),
    ]),
  });
  await registerRateLimit(
    app,
    options.rateLimitPerMinute ?? httpAppDefaults.rateLimitPerMinute,
    clusterStore,
    logger.child({ component: 'rate-limit' }),
  );
  const audit = registerRestAudit(app, runtime.audit, redactor);
  registerTraceContext(app as unknown as FastifyInstance);
  // The MCP endpoint registers later: the sessions gauge reads its count (`mcpCounts`, below) at scrape time.
  registerMetricsRoute(app as unknown as FastifyInstance, {
    ...(runtime.audit ? { audit: runtime.audit } : {}),
    sessions: () => mcpCounts?.sessionCount ?? 0,
    ...(runtime.manager ? { servers: () => runtime.manager?.status() ?? [] } : {}),
  });

  app.setErrorHandler((error, request, reply) => {
    const { status, body } = toHttpError(error);
    request.auditFields = { ...request.auditFields, errorCode: body.code };
    if (status >= 500)
      logger.error('request failed', {
        method: request.method,
        path: pathOf(request),
        status,
        error: errorMessage(error),
      });
    if (body.code === 'RATE_LIMIT_EXCEEDED' && !reply.hasHeader('retry-after')) reply.header('retry-after', '60');
    return reply.code(status).send(body);
  });
  app.setNotFoundHandler((request, reply) =>
    reply.code(404).send(errorBody(`No route ${request.method} ${pathOf(request)}`, 'NOT_FOUND')),
  );
  // The one place every REST body passes: a secret a backend echoed (in an error, a result) is masked here.
  // Not `/metrics`: its text is metric names, numbers and bounded label values (config ids, known tool names, route
  // patterns), and a short secret (a URL's user name) would mangle a metric name so Prometheus rejects the scrape.
  app.addHook('onSend', async (request, _reply, payload) =>
    typeof payload === 'string' && request.routeOptions.url !== '/metrics' ? redactor.redact(payload) : payload,
  );
  app.addHook('onResponse', async (request, reply) => {
    // Never the query string or headers: they may carry tokens.
    logger.debug('request', {
      method: request.method,
      path: pathOf(request),
      status: reply.statusCode,
      ms: Math.round(reply.elapsedTime),
    });
  });

  await registerOpenApiDocument(app, version);
  const context = {
    catalog: runtime.catalog,
    rankTools: options.rankTools ?? rankToolsWithCatalog(runtime.catalog),
    inFlight,
    audit,
  };
  // The endpoint registers later (after the REST routes); the health route reads its counts when asked.
  let mcpCounts: McpEndpoint | undefined;
  registerHealthRoute(app, version, () => ({
    sessions: mcpCounts?.sessionCount ?? 0,
    modernRequests: mcpCounts?.modernRequestCount ?? 0,
    listenStreams: mcpCounts?.listenStreamCount ?? 0,
    ...(runtime.pendingInputs ? { parkedCalls: runtime.pendingInputs.size } : {}),
  }));
  registerLivenessRoute(app);
  registerReadinessRoute(app, readiness);
  registerToolListRoutes(app, context);
  registerToolCallRoute(app, context);
  registerToolSearchRoute(app, context);
  registerCatalogSearchRoute(app, context);
  registerStatsRoute(app, { catalog: runtime.catalog, usage: runtime.usage });
  registerQuarantineRoutes(app, { catalog: runtime.catalog, replicas: runtime.replicas });
  if (runtime.manager) {
    // A login begun here may come back through another replica (docs/scale-out.md, "Backend OAuth across replicas").
    const callbackRelay = new ReplicaCallbackRelay(runtime.manager, clusterStore, logger);
    app.addHook('onClose', async () => callbackRelay.close());
    registerServerRoutes(app, {
      catalog: runtime.catalog,
      servers: callbackRelay.servers,
      ...(options.publicUrl !== undefined ? { publicUrl: options.publicUrl } : {}),
    });
    registerOAuthCallbackRoute(app, callbackRelay.servers, logger);
  }
  registerLegacyRedirects(app);
  const consoleHost = await registerConsole(app, {
    runtime,
    redactor,
    failedSignInLimitPerMinute:
      options.failedAuthenticationLimitPerMinute ?? httpAppDefaults.failedAuthenticationLimitPerMinute,
    version,
    ...(options.oauth ? { oauth: options.oauth } : {}),
    directory: options.consoleDirectory === null ? undefined : (options.consoleDirectory ?? defaultConsoleDirectory()),
    ...(options.configPath !== undefined ? { configPath: options.configPath } : {}),
  });
  const mcp = registerMcpEndpoint(app, {
    createServer: runtime.createServer,
    ...(runtime.serverFactory ? { serverFactory: runtime.serverFactory } : {}),
    ...(runtime.hub ? { hub: runtime.hub } : {}),
    logger,
    redactor,
    activity,
    stateless: options.stateless ?? false,
    sessionIdleTimeoutMs: options.sessionIdleTimeoutMs ?? httpAppDefaults.sessionIdleTimeoutMs,
    maxSessions,
    maxSessionsPerToken:
      options.maxSessionsPerToken ??
      defaultMaxSessionsPerToken(maxSessions, options.tokens.length, options.allowAnonymous),
    ...(options.maxListenStreams !== undefined ? { maxListenStreams: options.maxListenStreams } : {}),
    ...(options.maxListenStreamsPerToken !== undefined
      ? { maxListenStreamsPerToken: options.maxListenStreamsPerToken }
      : {}),
    ...(options.connectedModernCalls !== undefined ? { connectedModernCalls: options.connectedModernCalls } : {}),
    clusterStore,
  });
  mcpCounts = mcp;
  registerOpenApiRoute(app);

  // However the server closes, nothing in flight is dropped: REST calls are answered 503, MCP requests get an error.
  // Every request has its answer by the end of this hook. A connection still busy a moment later carries nothing more
  // we owe (a client stalled in the middle of a request, a stream it never lets end): it must not hold the shutdown
  // for Node's header timeout (60 s) or longer.
  let lingering: NodeJS.Timeout | undefined;
  app.addHook('preClose', async () => {
    shuttingDown = true;
    inFlight.stopAll('shutting-down');
    await mcp.closeAll({ code: -32000, message: shuttingDownMessage });
    lingering = setTimeout(() => {
      logger.info('closing the connections still open after shutdown answered every request', {
        waitedMs: lingerAfterAnswersMs,
      });
      app.server.closeAllConnections();
    }, lingerAfterAnswersMs);
  });
  app.addHook('onClose', async () => {
    clearTimeout(lingering);
    if (!options.clusterStore) await clusterStore.close();
  });

  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      await drainBeforeClose({
        readiness,
        activity,
        drainMs: options.drainMs ?? httpAppDefaults.drainMs,
        logger,
      });
      readiness.startShuttingDown();
      shuttingDown = true;
      const graceMs = options.shutdownGraceMs ?? httpAppDefaults.shutdownGraceMs;
      if (!(await activity.whenIdle(graceMs))) {
        logger.info('answering the calls still in flight with 503', { calls: activity.active, graceMs });
      }
      // Node closes idle keep-alive connections once, when the server starts closing. A connection whose response
      // ends after that moment (an answer still streaming, a body still arriving) would hold the close until its
      // keep-alive timeout, 72 s in Fastify: close such connections as soon as they fall idle instead.
      const closeIdle = setInterval(() => app.server.closeIdleConnections(), idleSweepMs);
      try {
        await app.close();
      } finally {
        clearInterval(closeIdle);
      }
    })();
    return closing;
  };
  return { app: app as unknown as FastifyInstance, mcp, console: consoleHost, close };
}

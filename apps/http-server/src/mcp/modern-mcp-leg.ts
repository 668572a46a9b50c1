import { type AuthInfo, createMcpHandler, isLegacyRequest, type Server } from '@modelcontextprotocol/server';
import type { Caller } from '@search-mcp/catalog';
import { isRecord, type SecretRedactor } from '@search-mcp/shared';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { McpServerOverrides } from './mcp-server-factory.js';
import type { PendingRequestListener } from './tracked-transport.js';
import { sendWebResponse, toWebRequest } from './web-request-bridge.js';

/** Builds one server instance for one request of `era` (the runtime's `serverFactory`). */
export type EraServerFactory = (context: { era: 'legacy' | 'modern' }, overrides: McpServerOverrides) => Server;

export interface ModernMcpLegOptions {
  serverFactory: EraServerFactory;
  /** The session's rules, applied per request here: who the caller is, and its project. */
  overridesFor(caller: Caller): McpServerOverrides;
  redactor: SecretRedactor;
  activity: PendingRequestListener;
}

export interface ModernMcpLeg {
  /** Whether this request is 2026-07-28 traffic (a POST whose body carries the per-request envelope). */
  accepts(request: FastifyRequest): Promise<boolean>;
  serve(request: FastifyRequest, reply: FastifyReply, caller: Caller): Promise<void>;
}

/**
 * `/mcp` for 2026-07-28 clients, next to the sessionful 2025 endpoint: the SDK's `createMcpHandler` with
 * `legacy: 'reject'` (2025 traffic never reaches it: the endpoint routes it to its sessions), one server instance per
 * request, no `Mcp-Session-Id`. The SDK checks `Mcp-Method`/`Mcp-Name` against the body (`400`, `-32020`). Tokens
 * and projects hold as on the 2025 leg: the caller the auth hook resolved rides to the factory as `authInfo`.
 */
export function createModernMcpLeg(options: ModernMcpLegOptions): ModernMcpLeg {
  const handler = createMcpHandler(
    (context) => options.serverFactory({ era: context.era }, options.overridesFor(callerOf(context.authInfo))),
    { legacy: 'reject' },
  );
  return {
    accepts: async (request) =>
      request.method === 'POST' && !(await isLegacyRequest(toWebRequest(request), request.body)),
    serve: async (request, reply, caller) => {
      options.activity.requestStarted();
      try {
        const response = await handler.fetch(toWebRequest(request), {
          authInfo: authInfoOf(caller),
          parsedBody: request.body,
        });
        await sendWebResponse(reply, response, options.redactor);
      } finally {
        options.activity.requestEnded();
      }
    },
  };
}

/** The caller as the SDK's pass-through `authInfo` (the token itself never travels: only its id and project). */
function authInfoOf(caller: Caller): AuthInfo {
  return { token: '', clientId: caller.tokenId ?? 'anonymous', scopes: [], extra: { caller } };
}

function callerOf(authInfo: AuthInfo | undefined): Caller {
  const caller = authInfo?.extra?.caller;
  if (!isRecord(caller)) return {};
  return {
    ...(typeof caller.tokenId === 'string' ? { tokenId: caller.tokenId } : {}),
    ...(typeof caller.projectId === 'string' ? { projectId: caller.projectId } : {}),
  };
}

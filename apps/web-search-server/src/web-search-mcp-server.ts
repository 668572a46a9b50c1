/**
 * The MCP side of `search-mcp-web-search`: lists `chatgpt_o3_search`, passes each call to `callWebSearchTool` with
 * the request's abort signal and a progress callback that becomes `notifications/progress` (when the client asked
 * for it with a progress token). Arguments that break the input schema are JSON-RPC -32602; everything else comes
 * back as a tool result. Wiring only: the search and its errors live in `@search-mcp/openai`.
 *
 * Built on the 2.x SDK so one definition serves both protocol eras: `createWebSearchMcpServer` is the factory that
 * `serveStdio` calls once per connection, and the instance it returns is bound to the era the client opened with
 * (a 2025 `initialize` handshake, or 2026-07-28 requests that carry version, client info and capabilities in
 * `_meta`). The low-level `Server` is used because the tool's JSON Schema and its validation live in
 * `@search-mcp/openai`; `McpServer.registerTool` would validate a second time with different error shapes.
 */
import {
  CLIENT_INFO_META_KEY,
  PROTOCOL_VERSION_META_KEY,
  ProtocolError,
  ProtocolErrorCode,
  Server,
  type ServerContext,
  type Tool,
} from '@modelcontextprotocol/server';
import {
  callWebSearchTool,
  webSearchTool,
  webSearchToolName,
  type WebSearchProgress,
  type WebSearchService,
} from '@search-mcp/openai';
import { errorMessage, isRecord, ValidationError, type Logger } from '@search-mcp/shared';

export interface WebSearchMcpServerOptions {
  service: WebSearchService;
  version: string;
  logger: Logger;
  /** The era the serving entry (`serveStdio`, `createMcpHandler`) builds this instance for: its factory context. */
  era: 'legacy' | 'modern';
}

/**
 * How long a 2026-07-28 client may reuse `tools/list` and `server/discover`: the tool is fixed for the life of the
 * process and the same for every caller (no per-user data), so the answer may be cached and shared. 2025-era
 * responses carry no cache fields.
 */
const listCacheHint = { ttlMs: 3_600_000, cacheScope: 'public' } as const;

/**
 * The tool as the 2.x SDK types it. `@search-mcp/openai` types schema properties as `Record<string, unknown>`; the
 * 2.x `Tool` wants JSON values. The definition is plain JSON data, so only the static type differs.
 */
const listedTool = webSearchTool as Tool;

export function createWebSearchMcpServer(options: WebSearchMcpServerOptions): Server {
  const { service, logger } = options;
  const server = new Server(
    { name: 'search-mcp-web-search', title: 'Search MCP web search (OpenAI)', version: options.version },
    {
      capabilities: { tools: {} },
      instructions: `${webSearchToolName} searches the web with OpenAI (o3 by default) and returns cited sources. A search takes 30 seconds to a few minutes; progress notifications are sent while it runs.`,
      cacheHints: { 'tools/list': listCacheHint, 'server/discover': listCacheHint },
    },
  );

  // One line per connection saying who connected and in which revision: the first thing to look at when a client
  // cannot use the server. A 2025-era client says it in `initialize`; a 2026-07-28 client in each request's `_meta`.
  let announced = false;
  const announceClient = (protocolVersion: unknown, client: unknown) => {
    if (announced) return;
    announced = true;
    const { name, version } = isRecord(client) ? client : {};
    logger.info('client connected', { era: options.era, protocolVersion, client: { name, version } });
  };
  server.oninitialized = () => announceClient(server.getNegotiatedProtocolVersion(), server.getClientVersion());
  const announceModernClient = (context: ServerContext) => {
    if (options.era !== 'modern') return;
    const envelope: Record<string, unknown> = context.mcpReq.envelope ?? {};
    announceClient(envelope[PROTOCOL_VERSION_META_KEY], envelope[CLIENT_INFO_META_KEY]);
  };
  // JSON that is not JSON-RPC, answers to nothing, messages of the other era: say so on stderr. (The SDK skips lines
  // that are not JSON at all without a word: stray output of a wrapper must not kill the connection.)
  server.onerror = (error) => logger.warn('protocol error', { error: errorMessage(error) });

  server.setRequestHandler('tools/list', (_request, context) => {
    announceModernClient(context);
    return { tools: [listedTool] };
  });

  server.setRequestHandler('tools/call', async (request, context) => {
    announceModernClient(context);
    const { name, arguments: args } = request.params;
    if (name !== webSearchToolName) {
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Tool not found: ${name}`);
    }
    const progressToken = context.mcpReq._meta?.progressToken;
    const onProgress =
      progressToken === undefined
        ? undefined
        : (progress: WebSearchProgress) => {
            context.mcpReq
              .notify({
                method: 'notifications/progress',
                params: { progressToken, progress: progress.progress, message: progress.message },
              })
              .catch((error: unknown) => logger.debug('progress not sent', { error: errorMessage(error) }));
          };
    try {
      const result = await callWebSearchTool(service, args, {
        signal: context.mcpReq.signal,
        ...(onProgress ? { onProgress } : {}),
      });
      // The era's codec owns the shape rules for structured results (a low-level handler must call it itself).
      return server.projectCallToolResult(result, listedTool.outputSchema);
    } catch (error) {
      if (ValidationError.isInstance(error)) throw new ProtocolError(ProtocolErrorCode.InvalidParams, error.message);
      throw error;
    }
  });

  return server;
}

/**
 * The MCP side of `search-mcp-web-search`: lists `chatgpt_o3_search`, passes each call to `callWebSearchTool` with
 * the request's abort signal and a progress callback that becomes `notifications/progress` (when the client asked
 * for it with a progress token). Arguments that break the input schema are JSON-RPC -32602; everything else comes
 * back as a tool result. Wiring only: the search and its errors live in `@search-mcp/openai`.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import {
  callWebSearchTool,
  webSearchTool,
  webSearchToolName,
  type WebSearchProgress,
  type WebSearchService,
} from '@search-mcp/openai';
import { errorMessage, ValidationError, type Logger } from '@search-mcp/shared';

export interface WebSearchMcpServerOptions {
  service: WebSearchService;
  version: string;
  logger: Logger;
}

export function createWebSearchMcpServer(options: WebSearchMcpServerOptions): Server {
  const { service, logger } = options;
  const server = new Server(
    { name: 'search-mcp-web-search', title: 'Search MCP web search (OpenAI)', version: options.version },
    {
      capabilities: { tools: {} },
      instructions: `${webSearchToolName} searches the web with OpenAI (o3 by default) and returns cited sources. A search takes 30 seconds to a few minutes; progress notifications are sent while it runs.`,
    },
  );

  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [webSearchTool] }));

  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const { name, arguments: args, _meta: meta } = request.params;
    if (name !== webSearchToolName) throw new McpError(ErrorCode.InvalidParams, `Tool not found: ${name}`);
    const progressToken = meta?.progressToken;
    const onProgress =
      progressToken === undefined
        ? undefined
        : (progress: WebSearchProgress) => {
            extra
              .sendNotification({
                method: 'notifications/progress',
                params: { progressToken, progress: progress.progress, message: progress.message },
              })
              .catch((error: unknown) => logger.debug('progress not sent', { error: errorMessage(error) }));
          };
    try {
      return await callWebSearchTool(service, args, {
        signal: extra.signal,
        ...(onProgress ? { onProgress } : {}),
      });
    } catch (error) {
      if (ValidationError.isInstance(error)) throw new McpError(ErrorCode.InvalidParams, error.message);
      throw error;
    }
  });

  return server;
}

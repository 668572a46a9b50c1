import {
  hostHeaderValidationResponse,
  isLegacyRequest,
  localhostAllowedHostnames,
  localhostAllowedOrigins,
  originValidationResponse,
} from '@modelcontextprotocol/server';
import { listenWebHandler } from '@search-mcp/test-kit';

/** An MCP endpoint on 127.0.0.1 (ephemeral port) as the suite expects one: `/mcp` and nothing else. */
export interface LoopbackMcpEndpoint {
  /** `http://127.0.0.1:<port>/mcp`. */
  url: URL;
  /** Closes every connection and stops listening. */
  close(): Promise<void>;
}

/**
 * Serves `/mcp` on 127.0.0.1: Host and Origin checked as a local server must (DNS rebinding), any other path 404,
 * then a 2025 request (no 2026-07-28 envelope) to `legacy` and anything else to `modern`.
 */
export async function listenOnLoopback(routes: {
  legacy: (request: Request) => Promise<Response>;
  modern: (request: Request) => Promise<Response>;
}): Promise<LoopbackMcpEndpoint> {
  const handle = async (request: Request): Promise<Response> => {
    const rejected =
      hostHeaderValidationResponse(request, localhostAllowedHostnames()) ??
      originValidationResponse(request, localhostAllowedOrigins());
    if (rejected) return rejected;
    if (new URL(request.url).pathname !== '/mcp') return new Response('Not Found', { status: 404 });
    return (await isLegacyRequest(request)) ? routes.legacy(request) : routes.modern(request);
  };
  const server = await listenWebHandler(handle);
  return { url: new URL('/mcp', server.origin), close: () => server.close() };
}

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ProtectedMcpServer } from '@search-mcp/test-kit/oauth';

/**
 * An HTTP front for a protected MCP server that claims to be the resource itself: its RFC 9728 metadata names its own
 * URL, and the challenges it passes on point there. Everything else goes to the server behind it unchanged.
 */
export async function startFront(
  target: ProtectedMcpServer,
  changeMetadata: (metadata: Record<string, unknown>) => Record<string, unknown> = (metadata) => metadata,
): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer(async (request, response) => {
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    if (request.url?.startsWith('/.well-known/oauth-protected-resource')) {
      const metadata = (await (await fetch(target.resourceMetadataUrl)).json()) as Record<string, unknown>;
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(changeMetadata({ ...metadata, resource: `${origin}/mcp` })));
      return;
    }
    const headers = new Headers();
    for (const [name, value] of Object.entries(request.headers)) {
      if (typeof value === 'string' && name !== 'host' && name !== 'content-length') headers.set(name, value);
    }
    const answer = await fetch(new URL(request.url ?? '/', target.url), {
      method: request.method ?? 'GET',
      headers,
      ...(chunks.length > 0 ? { body: Buffer.concat(chunks) } : {}),
    });
    const out: Record<string, string> = {};
    answer.headers.forEach((value, name) => {
      out[name] = name === 'www-authenticate' ? value.replaceAll(target.url.origin, origin) : value;
    });
    delete out['content-length'];
    delete out['content-encoding'];
    response.writeHead(answer.status, out);
    response.end(Buffer.from(await answer.arrayBuffer()));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

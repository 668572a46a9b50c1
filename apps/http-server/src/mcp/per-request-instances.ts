import type { Server } from '@modelcontextprotocol/server';

/**
 * The server instances `createMcpHandler` made for each request, so none outlives it unclosed. The SDK ends an
 * instance it answered without connecting (a `subscriptions/listen`, whose stream its listen router serves) with
 * `close()`, which does nothing on a server that was never connected: its `onclose`, where a Search MCP instance
 * leaves the runtime's hub and stops hearing backend changes, would never run, and every such request would leak a
 * hub session and a listener on the client manager. `release(request)` runs it for those.
 */
export class PerRequestInstances {
  private readonly made = new Map<Request, Array<{ server: Server; closed: () => boolean }>>();

  /** Remembers `server` as made for `request` (the factory context's `requestInfo`). */
  track<S extends Server>(request: Request | undefined, server: S): S {
    if (request === undefined) return server;
    let closed = false;
    const previous = server.onclose;
    server.onclose = () => {
      closed = true;
      previous?.();
    };
    const list = this.made.get(request) ?? [];
    list.push({ server, closed: () => closed });
    this.made.set(request, list);
    return server;
  }

  /** After the handler answered `request`: closes what it made but never connected (a connected one closes itself). */
  release(request: Request): void {
    const list = this.made.get(request);
    this.made.delete(request);
    for (const { server, closed } of list ?? []) {
      if (server.transport === undefined && !closed()) server.onclose?.();
    }
  }
}

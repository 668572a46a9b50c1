import { UriTemplate } from '@modelcontextprotocol/server';
import { errorMessage, isRecord, type Logger } from '@search-mcp/shared';
import type { BackendGateway } from '../forwarding/backend-gateway.js';

export interface ResourceRoutesOptions {
  logger: Logger;
  /** URIs indexed per server at most; a server listing more is routed by links and templates beyond that. */
  maxUrisPerServer?: number;
  /** Linked URIs remembered (least recently used go first). */
  maxLinks?: number;
}

interface ServerIndex {
  uris: Promise<Set<string>>;
  templates: Promise<Array<{ text: string; template: UriTemplate | undefined }>>;
}

/** One URI two servers answer for, and which of them gets the reads. */
export interface DuplicateResource {
  uri: string;
  serverIds: string[];
}

/**
 * Which server answers for a resource URI (URIs are passed through unchanged, so two servers may claim one). The
 * documented order: servers that **list** the URI, in config order; then the server that **linked** it in a tool or
 * prompt result; then servers with a **template** matching it, in config order. The index of a server is built on
 * first use from all its pages and dropped when it says its list changed or it reconnects.
 */
export class ResourceRoutes {
  private readonly indexes = new Map<string, ServerIndex>();
  private readonly links = new Map<string, string>();
  private readonly maxUrisPerServer: number;
  private readonly maxLinks: number;

  constructor(
    private readonly gateway: BackendGateway,
    private readonly options: ResourceRoutesOptions,
  ) {
    this.maxUrisPerServer = options.maxUrisPerServer ?? 100_000;
    this.maxLinks = options.maxLinks ?? 10_000;
  }

  /** The servers to try for `uri`, best first, among `visibleServerIds` (config order). */
  async candidates(uri: string, visibleServerIds: readonly string[]): Promise<string[]> {
    const servers = visibleServerIds.filter((id) => this.offersResources(id));
    const listing: string[] = [];
    const matching: string[] = [];
    await Promise.all(
      servers.map(async (id) => {
        const index = this.indexOf(id);
        // A server that cannot list now is skipped, not allowed to fail the read of another server's resource. Each
        // list on its own: a server without templates (`-32601` for `resources/templates/list`) keeps its resources.
        const [uris, templates] = await Promise.all([
          index.uris.catch(() => new Set<string>()),
          index.templates.catch(() => []),
        ]);
        if (uris.has(uri)) listing.push(id);
        else if (templates.some(({ template }) => template?.match(uri))) matching.push(id);
      }),
    );
    const inOrder = (ids: string[]) => servers.filter((id) => ids.includes(id));
    const linker = this.links.get(uri);
    const linked = linker !== undefined && servers.includes(linker) ? [linker] : [];
    return [...new Set([...inOrder(listing), ...linked, ...inOrder(matching)])];
  }

  /** The servers (config order) with a template exactly `uriTemplate`, for `completion/complete` of a template. */
  async serversWithTemplate(uriTemplate: string, visibleServerIds: readonly string[]): Promise<string[]> {
    const servers = visibleServerIds.filter((id) => this.offersResources(id));
    const found = await Promise.all(
      servers.map(async (id) =>
        (await this.indexOf(id).templates.catch(() => [])).some(({ text }) => text === uriTemplate),
      ),
    );
    return servers.filter((_, index) => found[index]);
  }

  /** Remembers the resources a tool or prompt result of `serverId` links or embeds, so they can be read. */
  noteLinks(serverId: string, result: unknown): void {
    if (!isRecord(result)) return;
    // On the tools/call path: no copies, one pass over the blocks.
    if (Array.isArray(result.content)) for (const block of result.content) this.noteLink(serverId, block);
    if (Array.isArray(result.messages)) {
      for (const message of result.messages) if (isRecord(message)) this.noteLink(serverId, message.content);
    }
  }

  private noteLink(serverId: string, block: unknown): void {
    if (!isRecord(block)) return;
    const uri =
      block.type === 'resource_link'
        ? block.uri
        : block.type === 'resource' && isRecord(block.resource)
          ? block.resource.uri
          : undefined;
    if (typeof uri !== 'string') return;
    this.links.delete(uri);
    this.links.set(uri, serverId);
    if (this.links.size > this.maxLinks) {
      const oldest = this.links.keys().next().value;
      if (oldest !== undefined) this.links.delete(oldest);
    }
  }

  /** Drops what is known of a server's resources (it changed its list, reconnected or went away). */
  invalidate(serverId: string): void {
    this.indexes.delete(serverId);
  }

  /** URIs listed by more than one of `serverIds` (config order): the first one answers them. For `doctor`. */
  async duplicates(serverIds: readonly string[]): Promise<DuplicateResource[]> {
    const owners = new Map<string, string[]>();
    for (const id of serverIds.filter((server) => this.offersResources(server))) {
      for (const uri of await this.indexOf(id).uris) owners.set(uri, [...(owners.get(uri) ?? []), id]);
    }
    return [...owners].filter(([, ids]) => ids.length > 1).map(([uri, ids]) => ({ uri, serverIds: ids }));
  }

  private offersResources(serverId: string): boolean {
    return this.gateway.serverCapabilities(serverId)?.resources !== undefined;
  }

  private indexOf(serverId: string): ServerIndex {
    let index = this.indexes.get(serverId);
    if (!index) {
      index = { uris: this.listUris(serverId), templates: this.listTemplates(serverId) };
      this.indexes.set(serverId, index);
      // A failed listing is not remembered: the next request tries again.
      const forget = () => {
        if (this.indexes.get(serverId) === index) this.indexes.delete(serverId);
      };
      index.uris.catch(forget);
      index.templates.catch(forget);
    }
    return index;
  }

  private async listUris(serverId: string): Promise<Set<string>> {
    const uris = new Set<string>();
    try {
      let cursor: string | undefined;
      const seen = new Set<string>();
      do {
        const page = await this.gateway.listResources(serverId, cursor);
        for (const resource of page.resources) uris.add(resource.uri);
        if (uris.size >= this.maxUrisPerServer) {
          this.options.logger.warn('a server lists more resources than are indexed for routing', {
            server: serverId,
            indexed: this.maxUrisPerServer,
          });
          break;
        }
        cursor = page.nextCursor;
        // A backend handing out the same cursor twice would page forever.
        if (cursor !== undefined && seen.has(cursor)) break;
        if (cursor !== undefined) seen.add(cursor);
      } while (cursor !== undefined);
    } catch (error) {
      this.options.logger.debug('could not list resources for routing', {
        server: serverId,
        error: errorMessage(error),
      });
      throw error;
    }
    return uris;
  }

  private async listTemplates(serverId: string): Promise<Array<{ text: string; template: UriTemplate | undefined }>> {
    const templates: Array<{ text: string; template: UriTemplate | undefined }> = [];
    let cursor: string | undefined;
    const seen = new Set<string>();
    do {
      const page = await this.gateway.listResourceTemplates(serverId, cursor);
      for (const { uriTemplate } of page.resourceTemplates) {
        templates.push({ text: uriTemplate, template: parseTemplate(uriTemplate) });
      }
      cursor = page.nextCursor;
      if (cursor !== undefined && seen.has(cursor)) break;
      if (cursor !== undefined) seen.add(cursor);
    } while (cursor !== undefined);
    return templates;
  }
}

function parseTemplate(text: string): UriTemplate | undefined {
  try {
    return new UriTemplate(text);
  } catch {
    return undefined;
  }
}

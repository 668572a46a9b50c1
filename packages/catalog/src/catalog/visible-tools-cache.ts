/**
 * The tools of every source, collected once per change of any source's `toolsRevision`, and the same narrowed per
 * project and per search filter. The same array comes back while nothing changed, so a ranker's index cache (keyed
 * by array identity) keeps hitting. Both per-caller caches are bounded: project ids and filters are caller input.
 */
import type { Logger, ToolInfo, ToolSource } from '@search-mcp/shared';
import { LruMap } from '../lru-map.js';
import { accessKey, isToolAllowed } from './caller-access.js';
import type { CallerAccess } from './catalog-types.js';
import { isServerVisibleToProject } from './project-visibility.js';
import { matchesSearchFilter, searchFilterKey, type CatalogSearchFilter } from './search-filter.js';

/** Projects whose tool arrays are kept: the configured ones and "no project" are what callers use. */
export const projectCacheSize = 64;
/** Search filters whose narrowed arrays are kept per project. */
const filterCacheSize = 16;
/** A filter key longer than this is not cached (it would make the cache large); its search still works. */
const maxCachedFilterKeyLength = 1024;
const noProject = '\u0000none';

/**
 * The tools one project sees, every source's tool by key, and the project's tools narrowed by the search filters it
 * used lately. One object per project and snapshot, so a lookup on the hot path allocates nothing.
 */
export interface ProjectTools {
  /** The tools of the servers the project sees. */
  readonly tools: ToolInfo[];
  /** Any source's tool by key (no visibility applied). */
  readonly byKey: ReadonlyMap<string, ToolInfo>;
  readonly byFilter: LruMap<string, ToolInfo[]>;
}

interface Snapshot {
  revisions: number[];
  all: ToolInfo[];
  byKey: Map<string, ToolInfo>;
  byProject: LruMap<string, ProjectTools>;
}

export class VisibleToolsCache {
  private snapshot?: Snapshot;

  constructor(
    private readonly sources: readonly ToolSource[],
    private readonly logger: Logger,
    /** What the catalog makes of the listed tools (the config's overrides), once per listing. */
    private readonly shape: (tools: ToolInfo[]) => ToolInfo[] = (tools) => tools,
  ) {}

  /** Forgets the snapshot: the next request lists again (a reload changed how tools are shown). */
  invalidate(): void {
    this.snapshot = undefined;
  }

  /**
   * A project's tools, at once (no promise) while no source changed since the last listing, else once the sources
   * are listed again. Every forwarded call looks here: an `await` per layer would cost a promise and a turn each.
   */
  project(projectId: string | undefined, access?: CallerAccess): ProjectTools | Promise<ProjectTools> {
    const fresh = this.fresh();
    if (fresh) return projectEntry(fresh, projectId, access);
    return this.relist().then((snapshot) => projectEntry(snapshot, projectId, access));
  }

  /** A project's tools when no source changed since the last listing, else undefined (nothing is listed). */
  projectIfFresh(projectId: string | undefined, access?: CallerAccess): ProjectTools | undefined {
    const fresh = this.fresh();
    return fresh ? projectEntry(fresh, projectId, access) : undefined;
  }

  /** The tools of the servers a project sees (no project: the servers without `projects`). */
  async forProject(projectId: string | undefined): Promise<ToolInfo[]> {
    return (await this.project(projectId)).tools;
  }

  /** A project's tools narrowed by a search filter; the same array for the same filter while tools stay the same. */
  async forFilter(
    projectId: string | undefined,
    filter: CatalogSearchFilter | undefined,
    access?: CallerAccess,
  ): Promise<ToolInfo[]> {
    const filterKey = searchFilterKey(filter);
    const entry = await this.project(projectId, access);
    if (filterKey === undefined || filter === undefined) return entry.tools;
    const cached = entry.byFilter.get(filterKey);
    if (cached) return cached;
    const tools = entry.tools.filter((tool) => matchesSearchFilter(tool, filter));
    if (filterKey.length <= maxCachedFilterKeyLength) entry.byFilter.set(filterKey, tools);
    return tools;
  }

  /** The snapshot when every source's `toolsRevision` is the one it was taken at. */
  private fresh(): Snapshot | undefined {
    const snapshot = this.snapshot;
    if (!snapshot) return undefined;
    const { sources } = this;
    for (let index = 0; index < sources.length; index += 1) {
      if (sources[index]?.toolsRevision !== snapshot.revisions[index]) return undefined;
    }
    return snapshot;
  }

  private async relist(): Promise<Snapshot> {
    const revisions = this.sources.map((source) => source.toolsRevision);
    const lists = await Promise.all(this.sources.map((source) => source.listAllTools()));
    const seen = new Set<string>();
    const listed: ToolInfo[] = [];
    for (const tool of lists.flat()) {
      if (seen.has(tool.toolKey)) {
        this.logger.warn('two sources list the same tool key; the first one is used', { toolKey: tool.toolKey });
        continue;
      }
      seen.add(tool.toolKey);
      listed.push(tool);
    }
    const all = this.shape(listed);
    const byKey = new Map<string, ToolInfo>();
    for (const tool of all) byKey.set(tool.toolKey, tool);
    // A source may have changed while listing; the next request lists again.
    const snapshot: Snapshot = { revisions, all, byKey, byProject: new LruMap(projectCacheSize) };
    this.snapshot = snapshot;
    return snapshot;
  }
}

/** One entry per project and access limit (an OAuth caller's roles): both narrow what is seen. */
function projectEntry(
  snapshot: Snapshot,
  projectId: string | undefined,
  access: CallerAccess | undefined,
): ProjectTools {
  const limit = accessKey(access, projectId);
  const projectKey = limit === '' ? (projectId ?? noProject) : `${projectId ?? noProject}\u0000${limit}`;
  let entry = snapshot.byProject.get(projectKey);
  if (!entry) {
    entry = {
      tools: snapshot.all.filter(
        (tool) =>
          isServerVisibleToProject(tool.serverProjects, projectId) &&
          isToolAllowed(access, projectId, tool.serverName, tool.toolKey),
      ),
      byKey: snapshot.byKey,
      byFilter: new LruMap(filterCacheSize),
    };
    snapshot.byProject.set(projectKey, entry);
  }
  return entry;
}

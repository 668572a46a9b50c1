/**
 * The tools of every source, collected once per change of any source's `toolsRevision`, and the same narrowed per
 * project and per search filter. The same array comes back while nothing changed, so a ranker's index cache (keyed
 * by array identity) keeps hitting. Both per-caller caches are bounded: project ids and filters are caller input.
 */
import type { Logger, ToolInfo, ToolSource } from '@search-mcp/shared';
import { LruMap } from '../lru-map.js';
import { isServerVisibleToProject } from './project-visibility.js';
import { matchesSearchFilter, searchFilterKey, type CatalogSearchFilter } from './search-filter.js';

/** Projects whose tool arrays are kept: the configured ones and "no project" are what callers use. */
export const projectCacheSize = 64;
/** Search filters whose narrowed arrays are kept per project. */
const filterCacheSize = 16;
/** A filter key longer than this is not cached (it would make the cache large); its search still works. */
const maxCachedFilterKeyLength = 1024;
const noProject = '\u0000none';

/** The tools one project sees, and the same narrowed by the search filters it used lately. */
interface ProjectTools {
  tools: ToolInfo[];
  byFilter: LruMap<string, ToolInfo[]>;
}

interface Snapshot {
  revisionKey: string;
  all: ToolInfo[];
  byKey: Map<string, ToolInfo>;
  byProject: LruMap<string, ProjectTools>;
}

export class VisibleToolsCache {
  private snapshot?: Snapshot;

  constructor(
    private readonly sources: readonly ToolSource[],
    private readonly logger: Logger,
  ) {}

  /** Any source's tool by key (no visibility applied). */
  async tool(toolKey: string): Promise<ToolInfo | undefined> {
    return (await this.current()).byKey.get(toolKey);
  }

  /** The tools of the servers a project sees (no project: the servers without `projects`). */
  async forProject(projectId: string | undefined): Promise<ToolInfo[]> {
    return (await this.projectTools(projectId)).tools;
  }

  /** A project's tools narrowed by a search filter; the same array for the same filter while tools stay the same. */
  async forFilter(projectId: string | undefined, filter: CatalogSearchFilter | undefined): Promise<ToolInfo[]> {
    const filterKey = searchFilterKey(filter);
    const entry = await this.projectTools(projectId);
    if (filterKey === undefined || filter === undefined) return entry.tools;
    const cached = entry.byFilter.get(filterKey);
    if (cached) return cached;
    const tools = entry.tools.filter((tool) => matchesSearchFilter(tool, filter));
    if (filterKey.length <= maxCachedFilterKeyLength) entry.byFilter.set(filterKey, tools);
    return tools;
  }

  private async projectTools(projectId: string | undefined): Promise<ProjectTools> {
    const snapshot = await this.current();
    const projectKey = projectId ?? noProject;
    let entry = snapshot.byProject.get(projectKey);
    if (!entry) {
      entry = {
        tools: snapshot.all.filter((tool) => isServerVisibleToProject(tool.serverProjects, projectId)),
        byFilter: new LruMap(filterCacheSize),
      };
      snapshot.byProject.set(projectKey, entry);
    }
    return entry;
  }

  private async current(): Promise<Snapshot> {
    const revisionKey = this.sources.map((source) => source.toolsRevision).join(',');
    if (this.snapshot?.revisionKey === revisionKey) return this.snapshot;
    const lists = await Promise.all(this.sources.map((source) => source.listAllTools()));
    const byKey = new Map<string, ToolInfo>();
    const all: ToolInfo[] = [];
    for (const tool of lists.flat()) {
      if (byKey.has(tool.toolKey)) {
        this.logger.warn('two sources list the same tool key; the first one is used', { toolKey: tool.toolKey });
        continue;
      }
      byKey.set(tool.toolKey, tool);
      all.push(tool);
    }
    // A source may have changed while listing; the next request lists again.
    const snapshot: Snapshot = { revisionKey, all, byKey, byProject: new LruMap(projectCacheSize) };
    this.snapshot = snapshot;
    return snapshot;
  }
}

/**
 * The tool-retrieval data sets as the search benchmarks read them, and their mapping to the `ToolInfo` a search
 * provider ranks. One mapping for every benchmark, so the numbers of search-bench.ts and hybrid-search-bench.ts
 * compare.
 */
import type { ToolInfo } from '@search-mcp/shared';

/** A tool of a data set's `tools.json` (a real-server tool list entry has the same fields, minus `server`). */
export interface DatasetTool {
  server: string;
  name: string;
  description?: string;
  inputSchema?: Record<string, unknown>;
}

/** A query of a data set's `queries.json` (or of bench/queries/real-servers.json). */
export interface DatasetQuery {
  id: string;
  query: string;
  /** The tools that answer it: data-set ids (`server.name`) in the file, tool keys once loaded. */
  gold: string[];
  steps?: string[];
  lang?: string;
  /** real-servers: `holdout` or `holdout2` for the queries written after tuning (see bench/queries/README.md). */
  set?: string;
  /** LiveMCPBench: per gold tool, the equivalent tools of other servers (any of them serves). */
  gold_groups?: string[][];
}

/** A loaded set: the tools as a provider sees them, the queries with tool keys as gold, and the raw tools. */
export interface Dataset {
  tools: ToolInfo[];
  queries: DatasetQuery[];
  /** The raw tools (the speed tests replicate them). */
  source: DatasetTool[];
}

/** Tools mapped to `ToolInfo`, and each data-set id (`server.name`) to its tool key. */
export interface DatasetCatalog {
  tools: ToolInfo[];
  keyOf: Map<string, string>;
}

/** A server id as the configuration normalizes one (packages/shared README): `^[a-z0-9][a-z0-9-]{0,31}$`. */
export function serverIdBase(server: string): string {
  const id = server
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/-+/g, '-')
    .replace(/^-+/, '')
    .slice(0, 32)
    .replace(/-+$/, '');
  return id.length > 0 ? id : 'server';
}

/** Maps data-set tools to ToolInfo; distinct data-set servers that normalize to the same id get `-2`, `-3`, … */
export function toCatalog(tools: readonly DatasetTool[], serverSuffix = ''): DatasetCatalog {
  const idOfServer = new Map<string, string>();
  const usedIds = new Set<string>();
  const keyOf = new Map<string, string>();
  const out: ToolInfo[] = [];
  for (const tool of tools) {
    let id = idOfServer.get(tool.server);
    if (id === undefined) {
      const base = serverIdBase(tool.server);
      id = `${base.slice(0, 32 - serverSuffix.length)}${serverSuffix}`;
      for (let n = 2; usedIds.has(id); n++) {
        const suffix = `-${n}${serverSuffix}`;
        id = `${base.slice(0, 32 - suffix.length).replace(/-+$/, '')}${suffix}`;
      }
      usedIds.add(id);
      idOfServer.set(tool.server, id);
    }
    const toolKey = `${id}:${tool.name}`;
    keyOf.set(`${tool.server}.${tool.name}`, toolKey);
    out.push({
      toolKey,
      toolName: tool.name,
      serverName: id,
      description: tool.description ?? '',
      inputSchema: (tool.inputSchema ?? { type: 'object' }) as ToolInfo['inputSchema'],
      serverDescription: tool.server,
    });
  }
  return { tools: out, keyOf };
}

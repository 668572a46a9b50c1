import type { Caller, ToolCatalog } from '@search-mcp/catalog';
import type { Logger, ToolInfo } from '@search-mcp/shared';
import type { RequestAudit } from '../audit/request-audit.js';
import { ExposedToolNames } from '../exposed-tool-names.js';
import type { RequestExtra, ServerStatusSource } from '../search-mcp-server-options.js';

/** The visible tools of a caller and the names they are listed under. */
export interface ToolExposure {
  tools: readonly ToolInfo[];
  names: ExposedToolNames;
}

/** What every handler of one MCP server shares. */
export interface HandlerContext {
  readonly catalog: ToolCatalog;
  readonly mode: 'meta' | 'proxy';
  readonly logger: Logger;
  readonly audit: RequestAudit;
  readonly manager: ServerStatusSource | undefined;
  readonly startupWaitMs: number;
  /** The caller of a request, from its `_meta` and transport. */
  callerOf(meta: Record<string, unknown> | undefined, extra: RequestExtra): Caller;
  exposure(caller: Caller): Promise<ToolExposure>;
}

/**
 * The visible tools of a caller with their listed names. The catalog returns the same array while nothing changed,
 * so the name table is built once per tool set, not per request.
 */
export function createToolExposure(catalog: ToolCatalog): (caller: Caller) => Promise<ToolExposure> {
  const tables = new WeakMap<readonly ToolInfo[], ExposedToolNames>();
  return async (caller) => {
    const tools = await catalog.visibleTools(caller);
    let names = tables.get(tools);
    if (!names) {
      names = new ExposedToolNames(tools);
      tables.set(tools, names);
    }
    return { tools, names };
  };
}

import type { Caller, ToolCatalog } from '@search-mcp/catalog';
import type { Logger, ToolInfo } from '@search-mcp/shared';
import type { RequestAudit } from '../audit/request-audit.js';
import { ExposedNames } from '../exposed-names.js';
import type { RequestExtra, ServerStatusSource } from '../search-mcp-server-options.js';
import type { ClientSession } from '../sessions/client-session.js';
import type { TaskTable } from '../tasks/task-table.js';

/** The visible tools of a caller and the names they are listed under. */
export interface ToolExposure {
  tools: readonly ToolInfo[];
  names: ExposedNames;
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
  /** At once while the catalog's tools are unchanged (every forwarded call asks), else once they are listed. */
  exposure(caller: Caller): ToolExposure | Promise<ToolExposure>;
  /** This server as a session of the forwarding hub: the origin of its calls (for backends' reverse requests). */
  readonly session: ClientSession | undefined;
  /** Where tasks created by direct task-augmented calls are kept (with a hub). */
  readonly tasks: TaskTable | undefined;
  /** Remembers the resources a tool result links or embeds, so the client can read them (with a hub). */
  readonly noteLinks: ((serverId: string, result: unknown) => void) | undefined;
}

/**
 * The visible tools of a caller with their listed names. The catalog returns the same array while nothing changed,
 * so the name table is built once per tool set, not per request.
 */
export function createToolExposure(catalog: ToolCatalog): (caller: Caller) => ToolExposure | Promise<ToolExposure> {
  const tables = new WeakMap<readonly ToolInfo[], ToolExposure>();
  const expose = (tools: readonly ToolInfo[]): ToolExposure => {
    let exposure = tables.get(tools);
    if (!exposure) {
      const names = new ExposedNames(
        tools.map((tool) => ({ key: tool.toolKey, serverId: tool.serverName, name: tool.toolName })),
      );
      exposure = { tools, names };
      tables.set(tools, exposure);
    }
    return exposure;
  };
  return (caller) => {
    const now = catalog.visibleToolsNow(caller);
    return now ? expose(now) : catalog.visibleTools(caller).then(expose);
  };
}

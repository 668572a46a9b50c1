import type { Caller, ToolCatalog } from '@search-mcp/catalog';
import type { ExposedNameStyle, Logger, ToolInfo } from '@search-mcp/shared';
import type { RequestAudit } from '../audit/request-audit.js';
import { ExposedNames } from '../exposed-names.js';
import type { PendingInputs } from '../input/pending-inputs.js';
import type { RequestExtra } from '../request-extra-types.js';
import type { ServerStatusSource } from '../search-mcp-server-options.js';
import type { ClientSession } from '../sessions/client-session.js';
import type { ClusterTaskRecords } from '../tasks/cluster-task-records.js';
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
  /** The longest `tool_discovery` waits for servers still starting that have no kept tool list. */
  readonly discoveryWaitMs: number;
  /** The caller of a request, from its `_meta` and transport. */
  callerOf(meta: Record<string, unknown> | undefined, extra: RequestExtra): Caller;
  /** At once while the catalog's tools are unchanged (every forwarded call asks), else once they are listed. */
  exposure(caller: Caller): ToolExposure | Promise<ToolExposure>;
  /** This server as a session of the forwarding hub: the origin of its calls (for backends' reverse requests). */
  readonly session: ClientSession | undefined;
  /** Where tasks created by direct task-augmented calls are kept (with a hub). */
  readonly tasks: TaskTable | undefined;
  /** With a cluster store: where those tasks are written through, so other replicas can answer them. */
  readonly taskRecords?: ClusterTaskRecords;
  /** The calls held for a 2026-07-28 client's retry, and the codec of our `requestState` (the runtime's). */
  readonly inputs: PendingInputs;
  /** Remembers the resources a tool result links or embeds, so the client can read them (with a hub). */
  readonly noteLinks: ((serverId: string, result: unknown) => void) | undefined;
}

/**
 * The visible tools of a caller with their listed names. The catalog returns the same array while nothing changed,
 * so the name table is built once per tool set, not per request. The naming style is read from the catalog's config
 * at each request, so a reload that changes `exposure.names` applies at once. `reserved`: names the server answers
 * itself (the meta-tools in meta mode), never given to a backend tool under `original`.
 */
export function createToolExposure(
  catalog: ToolCatalog,
  reserved?: ReadonlySet<string>,
): (caller: Caller) => ToolExposure | Promise<ToolExposure> {
  const tables = sharedTables(catalog, reserved);
  const expose = (tools: readonly ToolInfo[]): ToolExposure => {
    const style = catalog.config.exposure.names;
    const cached = tables.get(tools);
    if (cached?.style === style) return cached;
    const names = new ExposedNames(
      tools.map((tool) => ({ key: tool.toolKey, serverId: tool.serverName, name: tool.toolName })),
      { style, ...(reserved ? { reserved } : {}) },
    );
    const exposure = { tools, names, style };
    tables.set(tools, exposure);
    return exposure;
  };
  return (caller) => {
    const now = catalog.visibleToolsNow(caller);
    return now ? expose(now) : catalog.visibleTools(caller).then(expose);
  };
}

type ExposureTables = WeakMap<readonly ToolInfo[], ToolExposure & { style: ExposedNameStyle }>;

/**
 * The name tables of one catalog and reserved set, shared by every server instance over it: `search-mcp-http` builds
 * an instance for each 2026-07-28 request, which would otherwise name every visible tool again per call.
 */
const tablesByCatalog = new WeakMap<ToolCatalog, Map<ReadonlySet<string> | undefined, ExposureTables>>();

function sharedTables(catalog: ToolCatalog, reserved: ReadonlySet<string> | undefined): ExposureTables {
  let byReserved = tablesByCatalog.get(catalog);
  if (byReserved === undefined) {
    byReserved = new Map();
    tablesByCatalog.set(catalog, byReserved);
  }
  let tables = byReserved.get(reserved);
  if (tables === undefined) {
    tables = new WeakMap();
    byReserved.set(reserved, tables);
  }
  return tables;
}

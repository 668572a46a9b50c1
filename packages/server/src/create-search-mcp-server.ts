import type { Caller } from '@search-mcp/catalog';
import { silentLogger } from '@search-mcp/shared';
import { createRequestAudit } from './audit/request-audit.js';
import { callerFromMeta } from './caller-from-meta.js';
import { answersDependOnCaller, fixedToolListHint, listCacheHint, resourceReadHint } from './cache-hints.js';
import { callToolRequestSchema, createCallToolHandler } from './handlers/call-tool-handler.js';
import { createToolExposure, type HandlerContext } from './handlers/handler-context.js';
import { createListedToolFinder, createToolLister } from './handlers/list-tools-handler.js';
import { PendingInputs } from './input/pending-inputs.js';
import { createListChangedNotifier } from './list-changed-notifier.js';
import {
  TOOL_DISCOVERY,
  TOOL_EXECUTE,
  toolDiscoveryDefinition,
  toolExecuteDefinition,
} from './meta-tool-definitions.js';
import { packageVersion } from './package-version.js';
import { SearchMcpServer } from './search-mcp-server.js';
import type { RequestExtra } from './request-extra-types.js';
import type { SearchMcpServerOptions } from './search-mcp-server-options.js';
import { buildServerInstructions } from './server-instructions.js';
import { serversWithKeptLists, waitForStartingServers } from './starting-servers.js';
import { refuseCursor } from './forwarding/list-cursor.js';
import { forwardingCapabilities, registerForwarding } from './forwarding/register-forwarding.js';
import { toJsonRpcError } from './wire-errors.js';

/**
 * The longest the handshake (`initialize`, 2026 `server/discover`) waits for the caller's servers still starting, for
 * their own notes. Short on purpose: a client waits for this answer before anything else, and it is what makes a
 * start feel slow. By default only servers whose last connect in this process fitted in it are waited for (a
 * restart, a reload): a server never connected yet (every server at a stdio client's spawn, which starts them) is
 * named as still starting instead, so spawn → first answer is Search MCP's own start (~350 ms). An explicit
 * `instructionsWaitMs` waits for those too.
 */
const defaultInstructionsWaitMs = 500;
/** How long `tool_discovery` waits for servers still starting without a kept tool list (a cold `npx` start). */
const defaultDiscoveryWaitMs = 30_000;

const metaToolNames: ReadonlySet<string> = new Set([TOOL_DISCOVERY, TOOL_EXECUTE]);

/** The lists whose 2026-07-28 answers get `listCacheHint`. */
const cachedLists = new Set([
  'tools/list',
  'prompts/list',
  'resources/list',
  'resources/templates/list',
  'server/discover',
]);

/**
 * Builds the MCP server AI clients see, on the SDK's low-level `Server` so backend JSON Schemas and results pass
 * through untouched. Connect it to any transport: `await server.connect(transport)`.
 *
 * - meta mode: `tools/list` is `tool_discovery` + `tool_execute` (+ pinned tools); its size does not grow with the
 *   catalog.
 * - proxy mode: every visible tool as `server__tool` (or its own name with `exposure.names: "original"`),
 *   definitions unchanged, one page in the backends' own order (servers in config order, each server's tools as it
 *   lists them), so a single backend's list reads as its own.
 * - both: `tools/call` accepts any tool key (`server:tool`, `server.tool`, `server__tool`) or listed name.
 */
export function createSearchMcpServer(options: SearchMcpServerOptions): SearchMcpServer {
  const { catalog } = options;
  const config = catalog.config;
  const mode = options.mode ?? config.exposure.mode;
  const logger = options.logger ?? silentLogger;
  const { hub } = options;
  const stateless = options.stateless ?? false;
  const server = new SearchMcpServer(
    options.serverInfo ?? { name: 'search-mcp', version: packageVersion },
    {
      capabilities: hub ? forwardingCapabilities(stateless, options.era ?? 'legacy') : { tools: { listChanged: true } },
      instructions: buildServerInstructions(config, mode, options.projectId, options.access),
    },
    { era: options.era ?? 'legacy' },
  );
  // One line per connection saying who connected and in which revision: the first thing to look at when a client
  // cannot use Search MCP. A stateless instance serves one request (HTTP 2026-07-28: one per request), so its line
  // would repeat for every call: debug there.
  server.onClientConnected((client) => {
    (stateless ? logger.debug : logger.info).call(logger, 'client connected', { ...client });
    // A 2026-07-28 client has no `initialize`: its first request carries its capabilities, so backends waiting for
    // the first client's capabilities may start now (a 2025 client's `initialize` does this in the handshake).
    if (server.clientEra.namedByFirstRequest) options.onInitialize?.(server);
  });
  // 2026-07-28 answers say how long they may be reused and by whom (`docs/design/protocol-eras.md` §2.6); 2025
  // answers carry no such fields.
  const callerDependent = answersDependOnCaller(config) || options.resolveCaller !== undefined;
  const fixedToolList = mode === 'meta' && (options.pinned ?? config.exposure.pinned).length === 0;
  server.hintCaches((method) => {
    if (method === 'resources/read') return resourceReadHint;
    if (method === 'tools/list' && fixedToolList) return fixedToolListHint;
    if (!cachedLists.has(method)) return undefined;
    return listCacheHint({ callerDependent, manager: options.manager });
  });
  const inputs = options.pendingInputs ?? hub?.pendingInputs ?? new PendingInputs();
  const defaultCaller: Caller = options.projectId !== undefined ? { projectId: options.projectId } : {};
  const callerOf = (meta: Record<string, unknown> | undefined, extra: RequestExtra): Caller => {
    if (options.resolveCaller) return options.resolveCaller({ meta, extra });
    return callerFromMeta(meta, options.projectId);
  };
  const session = hub
    ? registerForwarding(server, {
        hub,
        inputs,
        stateless,
        era: options.era ?? 'legacy',
        manager: options.manager,
        initialCaller: defaultCaller,
        callerOf,
        mode,
        instructionsWaitMs: options.instructionsWaitMs ?? defaultInstructionsWaitMs,
        waitsForNewServers: options.instructionsWaitMs !== undefined,
        startupWaitMs: options.startupWaitMs ?? 5000,
        onInitialize: options.onInitialize,
      })
    : undefined;

  const context: HandlerContext = {
    catalog,
    mode,
    logger,
    audit: createRequestAudit(options.audit),
    manager: options.manager,
    startupWaitMs: options.startupWaitMs ?? 5000,
    discoveryWaitMs: options.discoveryWaitMs ?? defaultDiscoveryWaitMs,
    callerOf,
    // In meta mode the meta-tools' names are ours: a backend tool of that name is listed prefixed (pinned).
    exposure: createToolExposure(catalog, mode === 'meta' ? metaToolNames : undefined),
    session,
    tasks: hub?.sessions.tasks,
    ...(hub?.taskRecords ? { taskRecords: hub.taskRecords } : {}),
    inputs,
    noteLinks: hub ? (serverId, result) => hub.routes.noteLinks(serverId, result) : undefined,
  };

  const listTools = createToolLister(context, {
    pinned: options.pinned ?? config.exposure.pinned,
    metaTools: [toolDiscoveryDefinition(config.search.maxResults), toolExecuteDefinition()],
  });
  const notifier = createListChangedNotifier({
    server,
    manager: options.manager,
    onNamingChanged: (listener) => catalog.onNamingChanged(listener),
    listTools,
    initialCaller: defaultCaller,
    debounceMs: options.listChangedDebounceMs ?? 200,
    logger,
  });

  // A client that lists tools once, right after start-up, must not get a list without the servers still
  // connecting (proxy mode, pinned tools): its first listing waits for them, as long as a discovery would.
  let listedOnce = false;
  const listsBackendTools = mode === 'proxy' || (options.pinned ?? config.exposure.pinned).length > 0;
  server.handle(
    'tools/list',
    async (request: { params?: { cursor?: string; _meta?: Record<string, unknown> } }, extra) => {
      refuseCursor('tools/list', request.params?.cursor);
      const caller = context.callerOf(request.params?._meta, extra);
      if (!listedOnce && listsBackendTools && options.manager) {
        // Servers with a kept list are listed from it at once; only those without one are worth the wait.
        let kept = new Set<string>();
        try {
          const exposure = context.exposure(caller);
          kept = serversWithKeptLists((exposure instanceof Promise ? await exposure : exposure).tools);
        } catch {
          // A refused caller: the listing below answers with its error.
        }
        await waitForStartingServers(
          options.manager,
          context.startupWaitMs,
          extra.signal,
          (status) => !kept.has(status.id),
        );
      }
      listedOnce = true;
      let tools: Awaited<ReturnType<typeof listTools>>;
      try {
        tools = await listTools(caller);
      } catch (error) {
        // A refused caller (token not allowed for the project, a bad project id) gets that error's own code and
        // message; the SDK would send -32603 for an error without a numeric code.
        throw toJsonRpcError(error, 'tools/list');
      }
      notifier.listed(caller, tools);
      return { tools };
    },
  );
  server.handle('tools/call', createCallToolHandler(context), callToolRequestSchema);
  server.findListedTools(createListedToolFinder(context, { pinned: options.pinned ?? config.exposure.pinned }));
  return server;
}

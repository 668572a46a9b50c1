import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { Protocol, type RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import {
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type Implementation,
  type ServerNotification,
  type ServerRequest,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import type { Caller, ToolCatalog } from '@search-mcp/catalog';
import {
  SearchMcpError,
  parseToolKey,
  silentLogger,
  type Logger,
  type ServerStatus,
  type ToolCallResult,
  type ToolInfo,
  type ToolProgress,
} from '@search-mcp/shared';
import { z } from 'zod';
import type { AuditRecord, AuditSink } from './audit-log.js';
import { toDiscoveryResults, type DiscoveryResult } from './discovery-response.js';
import { ExposedToolNames } from './exposed-tool-names.js';
import {
  TOOL_DISCOVERY,
  TOOL_EXECUTE,
  toolDiscoveryDefinition,
  toolExecuteDefinition,
  type DiscoveryDetail,
} from './meta-tool-definitions.js';
import { buildServerInstructions } from './server-instructions.js';
import { JsonRpcWireError, toErrorResult, toJsonRpcError } from './wire-errors.js';

/** What the server needs from a client manager: states (for start-up), state changes and tool-list changes. */
export interface ServerStatusSource {
  status(): ServerStatus[];
  on(event: 'tools-changed' | 'status-change', listener: () => void): unknown;
  off(event: 'tools-changed' | 'status-change', listener: () => void): unknown;
}

export type RequestExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

export interface SearchMcpServerOptions {
  catalog: ToolCatalog;
  /** The client manager: lets discovery say which servers are still starting, and drives `tools/list_changed`. */
  manager?: ServerStatusSource;
  /** Default `exposure.mode` of the catalog's config. */
  mode?: 'meta' | 'proxy';
  /** Tool keys listed next to the meta-tools in meta mode. Default `exposure.pinned`. */
  pinned?: readonly string[];
  logger?: Logger;
  audit?: AuditSink;
  /** The project of requests that name none in `_meta.projectId` (CLI `--project`, header `X-Project-Id`). */
  projectId?: string;
  /** Decides the caller of each request; by default `_meta.projectId`, else `projectId`, and no token. */
  resolveCaller?: (request: { meta: Record<string, unknown> | undefined; extra: RequestExtra }) => Caller;
  serverInfo?: Implementation;
  /** Quiet time before `notifications/tools/list_changed` after backend tool lists change. Default 200 ms. */
  listChangedDebounceMs?: number;
  /**
   * How long a discovery waits for servers that are still starting before it searches what is connected (and says
   * what is not). The first question of a session usually comes right after start-up. Default 5,000 ms; 0 = never.
   */
  startupWaitMs?: number;
}

const DiscoveryArguments = z.object({
  query: z.union([z.string(), z.array(z.string())]),
  context: z.string().optional(),
  maxResults: z.number().int().min(1).max(50).optional(),
  detail: z.enum(['minimal', 'summary', 'full']).optional(),
});

const ExecuteArguments = z.object({
  toolKey: z.string().min(1),
  arguments: z.union([z.record(z.string(), z.unknown()), z.string()]).optional(),
});

// Registered on the base Protocol: the SDK Server's own tools/call wrapper re-parses results with its schema, which
// strips unknown fields of content blocks and rejects content types it does not know; results must pass unchanged.
const CallToolRequestLooseSchema = z.object({
  method: z.literal('tools/call'),
  params: z.looseObject({
    name: z.unknown().optional(),
    arguments: z.unknown().optional(),
    _meta: z.unknown().optional(),
  }),
});

const defaultServerInfo: Implementation = { name: 'search-mcp', version: '0.1.0' };

/**
 * Builds the MCP server AI clients see (CONTRACT §4), on the SDK's low-level `Server` so backend JSON Schemas and
 * results pass through untouched. Connect it to any transport: `await server.connect(new StdioServerTransport())`.
 *
 * - meta mode: `tools/list` is `tool_discovery` + `tool_execute` (+ pinned tools); its size does not grow with the
 *   catalog.
 * - proxy mode: every visible tool as `server__tool`, definitions unchanged, one page sorted by name.
 * - both: `tools/call` accepts any tool key (`server:tool`, `server.tool`, `server__tool`) or listed name.
 */
export function createSearchMcpServer(options: SearchMcpServerOptions): Server {
  const { catalog } = options;
  const config = catalog.config;
  const mode = options.mode ?? config.exposure.mode;
  const pinned = options.pinned ?? config.exposure.pinned;
  const logger = options.logger ?? silentLogger;
  const server = new Server(options.serverInfo ?? defaultServerInfo, {
    capabilities: { tools: { listChanged: true } },
    instructions: buildServerInstructions(config, mode, options.projectId),
  });

  const callerOf = (meta: Record<string, unknown> | undefined, extra: RequestExtra): Caller => {
    if (options.resolveCaller) return options.resolveCaller({ meta, extra });
    const projectId = typeof meta?.projectId === 'string' ? meta.projectId : options.projectId;
    return projectId !== undefined ? { projectId } : {};
  };

  const tables = new WeakMap<readonly ToolInfo[], ExposedToolNames>();
  const exposure = async (caller: Caller) => {
    const tools = await catalog.visibleTools(caller);
    let names = tables.get(tools);
    if (!names) {
      names = new ExposedToolNames(tools);
      tables.set(tools, names);
    }
    return { tools, names };
  };

  const listTools = async (caller: Caller): Promise<Tool[]> => {
    const { tools, names } = await exposure(caller);
    const listed = (tool: ToolInfo): Tool => toListedTool(tool, names.nameOf(tool.toolKey) ?? tool.toolKey);
    if (mode === 'proxy') return tools.map(listed).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const pinnedTools = pinned.flatMap((key) => {
      const tool = tools.find((entry) => entry.toolKey === key);
      return tool ? [listed(tool)] : [];
    });
    return [toolDiscoveryDefinition as unknown as Tool, toolExecuteDefinition as unknown as Tool, ...pinnedTools];
  };

  // What this client was last sent: `tools/list_changed` goes out only when the list differs from it.
  let lastCaller: Caller = options.projectId !== undefined ? { projectId: options.projectId } : {};
  let listedFingerprint: string | undefined;
  const fingerprintOf = (tools: readonly Tool[]) =>
    tools.map((tool) => `${tool.name}\u0000${tool.description ?? ''}`).join('\u0001');
  server.setRequestHandler(ListToolsRequestSchema, async (request, extra) => {
    const caller = callerOf(request.params?._meta as Record<string, unknown> | undefined, extra);
    let tools: Tool[];
    try {
      tools = await listTools(caller);
    } catch (error) {
      // A refused caller (token not allowed for the project, a bad project id) gets that error's own code and
      // message; the SDK would send -32603 for an error without a numeric code.
      throw toJsonRpcError(error, 'tools/list');
    }
    lastCaller = caller;
    listedFingerprint = fingerprintOf(tools);
    return { tools };
  });

  const audit = (
    record: Omit<AuditRecord, 'ts' | 'requestId' | 'durationMs'>,
    extra: RequestExtra,
    started: number,
  ) => {
    if (!options.audit) return;
    options.audit.record({
      ts: new Date().toISOString(),
      requestId: extra.sessionId ? `${extra.sessionId}:${String(extra.requestId)}` : String(extra.requestId),
      durationMs: Math.round((performance.now() - started) * 10) / 10,
      ...record,
    });
  };

  const progressForwarder = (
    meta: Record<string, unknown> | undefined,
    extra: RequestExtra,
    state: { lastSentAt: number },
  ) => {
    // The client's token goes back to the client; the backend gets a token of our own from the client manager.
    const token = meta?.progressToken;
    if (typeof token !== 'string' && typeof token !== 'number') return undefined;
    return (progress: ToolProgress) => {
      state.lastSentAt = performance.now();
      extra
        .sendNotification({
          method: 'notifications/progress',
          params: {
            progressToken: token,
            progress: progress.progress,
            ...(progress.total !== undefined ? { total: progress.total } : {}),
            ...(progress.message !== undefined ? { message: progress.message } : {}),
          },
        })
        .catch(() => {
          // The client went away; the call itself reports that.
        });
    };
  };

  const discovery = async (args: unknown, caller: Caller, extra: RequestExtra): Promise<ToolCallResult> => {
    const started = performance.now();
    const parsed = DiscoveryArguments.safeParse(args ?? {});
    if (!parsed.success) {
      audit(
        { event: 'tool_discovery', outcome: 'error', errorCode: 'VALIDATION_ERROR', ...callerFields(caller) },
        extra,
        started,
      );
      return toErrorResult(
        new Error(
          `Invalid tool_discovery arguments: ${describeZodIssues(parsed.error)}. Pass query as a string or an array of strings.`,
        ),
      );
    }
    const { query, context, maxResults } = parsed.data;
    const detail: DiscoveryDetail = parsed.data.detail ?? 'summary';
    const queries = typeof query === 'string' ? [query] : query;
    try {
      if (options.manager) await waitForStartingServers(options.manager, options.startupWaitMs ?? 5000, extra.signal);
      const response = await catalog.search(
        {
          query: queries,
          signal: extra.signal,
          ...(context !== undefined ? { context } : {}),
          ...(maxResults !== undefined ? { maxResults } : {}),
        },
        caller,
      );
      const { results, shortened } = toDiscoveryResults(response.results, detail);
      const structured: { results: DiscoveryResult[]; notice?: string } = { results };
      const starting = (options.manager?.status() ?? [])
        .filter((status) => status.state === 'starting')
        .map((status) => status.id);
      const notices: string[] = [];
      if (response.strategy === 'off') notices.push('Tool search is turned off for this project.');
      else if (starting.length > 0)
        notices.push(
          `Still connecting: ${starting.join(', ')}. Their tools are not searched yet; search again shortly.`,
        );
      if (shortened)
        notices.push(
          'Lower results show only parameter names and types; search for one of them with detail "full" to see its whole input schema.',
        );
      if (notices.length > 0) structured.notice = notices.join(' ');
      audit(
        {
          event: 'tool_discovery',
          outcome: 'ok',
          queries,
          resultCount: structured.results.length,
          ...callerFields(caller),
        },
        extra,
        started,
      );
      return { content: [{ type: 'text', text: JSON.stringify(structured) }], structuredContent: structured };
    } catch (error) {
      if (extra.signal.aborted) throw error;
      audit(
        { event: 'tool_discovery', outcome: 'error', queries, ...errorFields(error), ...callerFields(caller) },
        extra,
        started,
      );
      logger.warn('tool_discovery failed', { error: error instanceof Error ? error.message : String(error) });
      return toErrorResult(error);
    }
  };

  const run = async (
    event: 'tool_execute' | 'tools/call',
    toolKey: string,
    args: Record<string, unknown>,
    caller: Caller,
    meta: Record<string, unknown> | undefined,
    extra: RequestExtra,
  ): Promise<ToolCallResult> => {
    const started = performance.now();
    const progressState = { lastSentAt: 0 };
    const onProgress = progressForwarder(meta, extra, progressState);
    const serverId = parseToolKey(toolKey)?.serverId;
    try {
      const result = await catalog.execute(toolKey, args, caller, {
        signal: extra.signal,
        ...(onProgress ? { onProgress } : {}),
      });
      await progressGap(progressState.lastSentAt);
      audit(
        {
          event,
          toolKey,
          ...(serverId ? { serverId } : {}),
          outcome: result.isError ? 'tool_error' : 'ok',
          ...callerFields(caller),
        },
        extra,
        started,
      );
      return result;
    } catch (error) {
      const outcome = extra.signal.aborted ? 'cancelled' : 'error';
      audit(
        { event, toolKey, ...(serverId ? { serverId } : {}), outcome, ...errorFields(error), ...callerFields(caller) },
        extra,
        started,
      );
      throw error;
    }
  };

  const handleCall = async (
    request: z.infer<typeof CallToolRequestLooseSchema>,
    extra: RequestExtra,
  ): Promise<ToolCallResult> => {
    const { name, arguments: rawArguments, _meta } = request.params;
    if (typeof name !== 'string' || name === '') {
      throw new JsonRpcWireError(
        ErrorCode.InvalidParams,
        'Invalid tools/call params: "name" must be a non-empty string',
      );
    }
    if (
      rawArguments !== undefined &&
      (typeof rawArguments !== 'object' || rawArguments === null || Array.isArray(rawArguments))
    ) {
      throw new JsonRpcWireError(ErrorCode.InvalidParams, 'Invalid tools/call params: "arguments" must be an object');
    }
    const meta = typeof _meta === 'object' && _meta !== null ? (_meta as Record<string, unknown>) : undefined;
    const args = (rawArguments ?? {}) as Record<string, unknown>;
    const caller = callerOf(meta, extra);

    if (mode === 'meta' && name === TOOL_DISCOVERY) return discovery(args, caller, extra);
    if (mode === 'meta' && name === TOOL_EXECUTE) {
      const started = performance.now();
      const refuse = (message: string, toolKey?: string) => {
        audit(
          {
            event: 'tool_execute',
            outcome: 'error',
            errorCode: 'VALIDATION_ERROR',
            ...(toolKey ? { toolKey } : {}),
            ...callerFields(caller),
          },
          extra,
          started,
        );
        return toErrorResult(new Error(message));
      };
      const parsed = ExecuteArguments.safeParse(args);
      if (!parsed.success) {
        return refuse(
          `Invalid tool_execute arguments: ${describeZodIssues(parsed.error)}. Pass toolKey (a string) and arguments (an object).`,
        );
      }
      const toolArguments = parseArguments(parsed.data.arguments);
      if (toolArguments === undefined)
        return refuse(
          'Invalid tool_execute arguments: "arguments" must be an object (or a JSON object string).',
          parsed.data.toolKey,
        );
      try {
        return await run('tool_execute', parsed.data.toolKey.trim(), toolArguments, caller, meta, extra);
      } catch (error) {
        if (extra.signal.aborted) throw error;
        return toErrorResult(error);
      }
    }

    try {
      // Inside the try: a refused caller fails here already, and must get its error's code, not -32603.
      const { names } = await exposure(caller);
      const toolKey = names.keyOf(name) ?? name;
      return await run('tools/call', toolKey, args, caller, meta, extra);
    } catch (error) {
      throw toJsonRpcError(error, name);
    }
  };
  Protocol.prototype.setRequestHandler.call(server, CallToolRequestLooseSchema, handleCall as never);

  // tools/list_changed when what this server lists changes (proxy: any tool; meta: a pinned tool appears or goes).
  if (options.manager) {
    const manager = options.manager;
    let timer: NodeJS.Timeout | undefined;
    const check = async () => {
      timer = undefined;
      // A client that has not listed tools yet will get the current list when it does.
      if (!server.transport || listedFingerprint === undefined) return;
      try {
        const fingerprint = fingerprintOf(await listTools(lastCaller));
        if (fingerprint !== listedFingerprint) {
          listedFingerprint = fingerprint;
          await server.sendToolListChanged();
        }
      } catch (error) {
        logger.debug('could not check the tool list for changes', {
          error: error instanceof Error ? error.message : String(error),
        });
      }
    };
    const onToolsChanged = () => {
      if (timer) clearTimeout(timer);
      timer = setTimeout(() => void check(), options.listChangedDebounceMs ?? 200);
      timer.unref();
    };
    manager.on('tools-changed', onToolsChanged);
    const previousOnClose = server.onclose;
    server.onclose = () => {
      manager.off('tools-changed', onToolsChanged);
      if (timer) clearTimeout(timer);
      previousOnClose?.();
    };
  }

  return server;
}

/**
 * Clients built on the MCP SDK drop a progress notification that they read in the same chunk as the response it
 * belongs to (the response removes the progress handler first). A response sent right after a progress notification
 * waits this long, so the two usually arrive apart; calls without recent progress are not delayed.
 */
const progressGapMs = 15;

async function progressGap(lastSentAt: number): Promise<void> {
  const wait = lastSentAt + progressGapMs - performance.now();
  if (lastSentAt > 0 && wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
}

/** Resolves when no server is `starting`, after `limitMs`, or when the request is cancelled. */
function waitForStartingServers(manager: ServerStatusSource, limitMs: number, signal: AbortSignal): Promise<void> {
  const starting = () => manager.status().some((status) => status.state === 'starting');
  if (limitMs <= 0 || !starting()) return Promise.resolve();
  return new Promise((resolve) => {
    const finish = () => {
      clearTimeout(timer);
      manager.off('status-change', check);
      signal.removeEventListener('abort', finish);
      resolve();
    };
    const check = () => {
      if (!starting()) finish();
    };
    const timer = setTimeout(finish, limitMs);
    manager.on('status-change', check);
    signal.addEventListener('abort', finish, { once: true });
  });
}

/** A tool as listed: its definition as the backend sent it, under its exposed name. */
function toListedTool(tool: ToolInfo, exposedName: string): Tool {
  const definition: Record<string, unknown> = tool.definition
    ? { ...tool.definition }
    : {
        description: tool.description,
        inputSchema: tool.inputSchema,
        ...(tool.title !== undefined ? { title: tool.title } : {}),
        ...(tool.outputSchema !== undefined ? { outputSchema: tool.outputSchema } : {}),
        ...(tool.annotations !== undefined ? { annotations: tool.annotations } : {}),
      };
  definition.name = exposedName;
  return definition as Tool;
}

function parseArguments(value: Record<string, unknown> | string | undefined): Record<string, unknown> | undefined {
  if (value === undefined) return {};
  if (typeof value !== 'string') return value;
  // Some models send the arguments as a JSON string.
  try {
    const parsed: unknown = JSON.parse(value);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

function describeZodIssues(error: z.ZodError): string {
  return error.issues.map((issue) => `${issue.path.join('.') || 'arguments'}: ${issue.message}`).join('; ');
}

function callerFields(caller: Caller): Pick<AuditRecord, 'projectId' | 'tokenId'> {
  return {
    ...(caller.projectId !== undefined ? { projectId: caller.projectId } : {}),
    ...(caller.tokenId !== undefined ? { tokenId: caller.tokenId } : {}),
  };
}

function errorFields(error: unknown): Pick<AuditRecord, 'errorCode'> {
  if (SearchMcpError.isInstance(error)) return { errorCode: error.code };
  if (error instanceof McpError) return { errorCode: String(error.code) };
  return { errorCode: 'INTERNAL_ERROR' };
}

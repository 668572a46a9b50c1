import {
  formatToolKey,
  ToolDisabledError,
  type ToolInfo,
  ToolNotFoundError,
  ValidationError,
  type ToolSource,
  type LoggingLevel,
  type McpCallToolResult,
  isPerUserServer,
} from '@search-mcp/shared';
import { loadConfig } from '@search-mcp/shared/node';
import type { BackendRequestOptions } from './connection/backend-request-options.js';
import type { CallToolOptions } from './connection/forward-tool-call.js';
import type { TaskStatusParams } from './backend-notification-params.js';
import type { ServerConnection } from './connection/server-connection.js';
import * as prompts from './features/prompt-forwarding.js';
import type { CompleteParams, PromptPage } from './features/prompt-forwarding.js';
import * as resources from './features/resource-forwarding.js';
import type { ResourcePage, ResourceTemplatePage } from './features/resource-forwarding.js';
import * as tasks from './features/task-forwarding.js';
import { runToolAsTask, taskOfRequestState } from './features/task-run.js';
import { ManagedServers } from './managed-servers.js';
import type { McpClientManagerOptions } from './mcp-client-manager-options.js';
import type { RequestOrigin } from './reverse/reverse-request-types.js';
import { withBackendCallSpan } from './telemetry/backend-call-span.js';

/**
 * Connects Search MCP to its backend MCP servers and keeps them alive.
 *
 * ```ts
 * const manager = new McpClientManager({ mcpServers: { everything: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-everything'] } } });
 * await manager.startAll();
 * const tools = await manager.listAllTools();
 * const result = await manager.callTool('everything', 'echo', { message: 'hi' });
 * await manager.close();
 * ```
 */
export class McpClientManager extends ManagedServers implements ToolSource {
  private readonly taskTools = new Map<string, Set<string>>();

  /** Reads, validates and resolves a config file (JSON with comments allowed). */
  static async fromFile(path: string, options: McpClientManagerOptions = {}): Promise<McpClientManager> {
    const config = await loadConfig(path, options.env ? { env: options.env } : {});
    return new McpClientManager(config, options);
  }

  /**
   * Calls a tool and returns the backend's `CallToolResult` unchanged (including `isError`, `structuredContent`,
   * `_meta`). A server that is not running fails at once with `ServerNotRunningError` and is reconnected in the
   * background; backend errors become `BackendError`, timeouts `TimeoutError`; cancellation rejects with the
   * signal's reason. A 2026-07-28 backend may answer `input_required` instead: it resolves as that value
   * (`isInputRequiredResult` from `@search-mcp/shared`), unfulfilled; call again with `options.inputResponses` and
   * its `requestState` to retry (a 2025 backend given those rejects with `ValidationError`).
   *
   * `options.subject` on a server with `identity: "per-user"`: the call runs on that caller's own connection,
   * authorized with their own account (README, "Per-user servers"); a caller who has not authorized it yet
   * gets a `BackendAuthorizationError` whose `authorizationUrl` they open, then they call again.
   */
  callTool(
    id: string,
    toolName: string,
    args: Record<string, unknown> = {},
    options: CallToolOptions = {},
  ): Promise<McpCallToolResult> {
    // Not an async function: every forwarded call comes this way, and an async function returning the call's promise
    // costs a promise and three turns more. A refusal below still rejects (never throws).
    try {
      return this.startCall(id, toolName, args, options);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  private startCall(
    id: string,
    toolName: string,
    args: Record<string, unknown>,
    options: CallToolOptions,
  ): Promise<McpCallToolResult> {
    const connection = this.connectionOf(id);
    if (!connection) {
      throw new ToolNotFoundError({
        toolName: formatToolKey(id, toolName),
        message: `Tool not found: ${formatToolKey(id, toolName)} (no MCP server '${id}' is configured)`,
      });
    }
    if (Object.hasOwn(connection.config.toolPermissions, toolName) && !connection.config.toolPermissions[toolName]) {
      throw new ToolDisabledError({ toolName: formatToolKey(id, toolName), reason: 'toolPermissions' });
    }
    if (options.subject !== undefined && isPerUserServer(connection.config)) {
      if (options.task) {
        // The task would live on the caller's connection, which the task methods (`getTask`, …) do not reach.
        const message = `MCP server '${id}' is per-user: its tools cannot be called as tasks (task) for a caller`;
        throw new ValidationError({ issues: [{ path: 'task', message }], message });
      }
      return withBackendCallSpan(id, toolName, () =>
        this.runForCaller(connection.config, options.subject as string, (callerConnection) =>
          this.callOn(callerConnection, toolName, args, options),
        ),
      );
    }
    return withBackendCallSpan(id, toolName, () => this.callOn(connection, toolName, args, options));
  }

  /** A tool call on one connection (a server's shared one, or a caller's own): as a task when the tool needs one. */
  private callOn(
    connection: ServerConnection,
    toolName: string,
    args: Record<string, unknown>,
    options: CallToolOptions,
  ): Promise<McpCallToolResult> {
    // Not async either (see `callTool`): a failure here still rejects, so the call's span ends with it.
    const id = connection.id;
    let call: Promise<McpCallToolResult>;
    try {
      if (options.task) return connection.callTool(toolName, args, options);
      if (this.taskTools.get(id)?.has(toolName) || taskOfRequestState(options.requestState) !== undefined) {
        return this.runAsTask(connection, toolName, args, options);
      }
      call = connection.callTool(toolName, args, options);
    } catch (error) {
      return Promise.reject(error);
    }
    if (!tasks.offersTasksExtension(connection)) return call;
    // A 2026-07-28 backend says a tool runs only as a task by refusing a plain call (`-32021`); its listing has no
    // `execution`. Such a tool is run as a task at once from then on (until its server's tool list changes).
    return call.catch((error: unknown) => {
      if (!tasks.needsTasksExtension(error)) throw error;
      this.learnTaskTool(id, toolName);
      return this.runAsTask(connection, toolName, args, options);
    });
  }

  /** Runs a tool as a task inside the call: its status as progress, then its result (`runToolAsTask`). */
  private async runAsTask(
    connection: ServerConnection,
    toolName: string,
    args: Record<string, unknown>,
    options: CallToolOptions,
  ): Promise<McpCallToolResult> {
    const id = connection.id;
    return (await runToolAsTask(connection, toolName, args, options, (listener) => {
      const relay = (serverId: string, params: TaskStatusParams) => serverId === id && listener(params);
      this.on('task-status', relay);
      return () => this.off('task-status', relay);
    })) as McpCallToolResult;
  }

  /** `tasks/get` of a backend task, unchanged. */
  async getTask(id: string, taskId: string, options?: BackendRequestOptions): Promise<Record<string, unknown>> {
    return tasks.getTask(this.connection(id), taskId, options);
  }

  /** `tasks/result`: waits until the task ends, then its result unchanged. */
  async getTaskResult(id: string, taskId: string, options?: BackendRequestOptions): Promise<Record<string, unknown>> {
    return tasks.getTaskResult(this.connection(id), taskId, options);
  }

  /** One page of `tasks/list`; empty from a server that cannot list tasks. */
  async listTasks(id: string, cursor?: string, options?: BackendRequestOptions): Promise<Record<string, unknown>> {
    return tasks.listTasks(this.connection(id), cursor, options);
  }

  async cancelTask(id: string, taskId: string, options?: BackendRequestOptions): Promise<Record<string, unknown>> {
    return tasks.cancelTask(this.connection(id), taskId, options);
  }

  /**
   * `tasks/update` (2026-07-28 tasks extension): answers the `inputRequests` a task in `input_required` shows in
   * `getTask`, keyed as the backend asked. A backend without the extension: `BackendError` `-32601`.
   */
  async updateTask(
    id: string,
    taskId: string,
    inputResponses: Record<string, unknown>,
    options?: BackendRequestOptions,
  ): Promise<Record<string, unknown>> {
    return tasks.updateTask(this.connection(id), taskId, inputResponses, options);
  }

  /** One page of a server's resources (URIs unchanged). A server without `resources`: an empty page. */
  async listResources(id: string, cursor?: string, options?: BackendRequestOptions): Promise<ResourcePage> {
    return resources.listResources(this.connection(id), this.logger, cursor, options);
  }

  /** One page of a server's resource templates. A server without `resources`: an empty page. */
  async listResourceTemplates(
    id: string,
    cursor?: string,
    options?: BackendRequestOptions,
  ): Promise<ResourceTemplatePage> {
    return resources.listResourceTemplates(this.connection(id), this.logger, cursor, options);
  }

  /**
   * Reads a resource; the backend's result (`{ contents }`) unchanged, or its `input_required` answer (retry with
   * `options.inputResponses` and `requestState`, as for `callTool`).
   */
  async readResource(id: string, uri: string, options?: BackendRequestOptions): Promise<Record<string, unknown>> {
    return resources.readResource(this.connection(id), uri, options);
  }

  /** Subscribes to a resource's updates (`resource-updated` events). Counted per uri; renewed after reconnects. */
  async subscribeResource(id: string, uri: string, options?: BackendRequestOptions): Promise<void> {
    return resources.subscribeResource(this.connection(id), uri, options);
  }

  /** Ends one subscription; the backend hears `unsubscribe` when none is left for the uri. */
  async unsubscribeResource(id: string, uri: string, options?: BackendRequestOptions): Promise<void> {
    return resources.unsubscribeResource(this.connection(id), uri, options);
  }

  /** One page of a server's prompts (names as the backend gives them). A server without `prompts`: empty. */
  async listPrompts(id: string, cursor?: string, options?: BackendRequestOptions): Promise<PromptPage> {
    return prompts.listPrompts(this.connection(id), this.logger, cursor, options);
  }

  /** Gets a prompt (`{ messages }`), or a 2026-07-28 backend's `input_required` answer (retry as for `callTool`). */
  async getPrompt(
    id: string,
    name: string,
    args?: Record<string, string>,
    options?: BackendRequestOptions,
  ): Promise<Record<string, unknown>> {
    return prompts.getPrompt(this.connection(id), name, args, options);
  }

  /** `completion/complete` for a prompt argument or a resource template variable. */
  async complete(
    id: string,
    params: CompleteParams,
    options?: BackendRequestOptions,
  ): Promise<Record<string, unknown>> {
    return prompts.complete(this.connection(id), params, options);
  }

  /** Sets a server's logging level; remembered and set again after every reconnect. */
  async setLoggingLevel(id: string, level: LoggingLevel, options?: BackendRequestOptions): Promise<void> {
    return prompts.setLoggingLevel(this.connection(id), level, options);
  }

  /** Sends `notifications/roots/list_changed` (when the router declared roots with `listChanged`). */
  async sendRootsListChanged(id: string): Promise<void> {
    return this.connection(id).sendRootsListChanged();
  }

  /** What a running server announced in `initialize`; undefined while it is not running. */
  serverCapabilities(id: string): Readonly<Record<string, unknown>> | undefined {
    return this.connection(id).capabilities();
  }

  /** A running server's `instructions`; undefined when it gave none or is not running. */
  serverInstructions(id: string): string | undefined {
    return this.connection(id).instructions();
  }

  /**
   * The `origin`s of the calls to a server in flight now (`callTool`, `getPrompt`, `readResource`, `complete`,
   * `getTaskResult` given `options.origin`), newest first, one per call. A 2026-07-28 client hears a server's log
   * messages only inside its own requests: these are the requests a `log-message` of the server may go to.
   */
  inFlightOrigins(id: string): RequestOrigin[] {
    return this.connectionOf(id)?.inFlightOrigins() ?? [];
  }

  private learnTaskTool(serverId: string, toolName: string): void {
    const known = this.taskTools.get(serverId);
    if (known) known.add(toolName);
    else this.taskTools.set(serverId, new Set([toolName]));
  }

  /** @internal */
  protected override toolsUpdated(serverId: string, tools: readonly ToolInfo[]): void {
    // Tools that must run as tasks (`execution.taskSupport: "required"`), looked up on every call: a set per server.
    const required = tools.filter(tasks.requiresTask).map((tool) => tool.toolName);
    if (required.length > 0) this.taskTools.set(serverId, new Set(required));
    else this.taskTools.delete(serverId);
  }
}

import {
  errorMessage,
  formatToolKey,
  hasInputRetry,
  isValidServerId,
  SearchMcpError,
  TimeoutError,
  ToolDisabledError,
  ToolNotFoundError,
  ValidationError,
  type Issue,
  type ServerState,
  type ToolCallOptions,
  type ToolCallResult,
  type ToolInfo,
} from '@search-mcp/shared';
import type { CatalogToolSource, DisabledTool } from '../catalog/catalog-tool-source.js';
import { toCallToolResult, toInputSchema } from './registered-tool-conversion.js';
import type {
  RegisterOptions,
  ToolImplementation,
  ToolMetadata,
  ToolRegistryEntry,
  ToolRegistryListFilter,
  ToolRegistryOptions,
} from './tool-registry-types.js';

const toolNamePattern = /^[a-z][a-z0-9-]*$/;

/**
 * In-process tools for embedding hosts (packages/catalog/README.md, "ToolRegistry"). Registered tools join the catalog
 * under one server id and are searched and executed like backend tools: it is a `ToolSource`, like `McpClientManager`.
 */
export class ToolRegistry implements CatalogToolSource {
  readonly serverId: string;
  private readonly entries = new Map<string, ToolRegistryEntry>();
  private readonly options: ToolRegistryOptions;
  private revision = 0;

  constructor(options: ToolRegistryOptions = {}) {
    const serverId = options.serverId ?? 'local';
    if (!isValidServerId(serverId)) {
      throw new ValidationError({ issues: [{ path: 'serverId', message: 'must match ^[a-z0-9][a-z0-9-]{0,31}$' }] });
    }
    this.serverId = serverId;
    this.options = options;
  }

  get serverIds(): readonly string[] {
    return [this.serverId];
  }

  get toolsRevision(): number {
    return this.revision;
  }

  /** The projects that see these tools; undefined: callers without a project. */
  get projects(): readonly string[] | undefined {
    return this.options.projects;
  }

  /** An in-process registry is always up: `running` for its own server id. */
  serverState(serverId: string): ServerState | undefined {
    return serverId === this.serverId ? 'running' : undefined;
  }

  /** A registered tool that is disabled (not listed), for the catalog's "disabled" answer. */
  disabledTool(serverId: string, toolName: string): DisabledTool | undefined {
    if (serverId !== this.serverId || this.entries.get(toolName)?.enabled !== false) return undefined;
    const projects = this.options.projects;
    return { reason: 'disabled in the registry', ...(projects !== undefined ? { serverProjects: projects } : {}) };
  }

  /** @throws ValidationError on a bad name, a missing description, a duplicate (unless `overwrite`). */
  register(metadata: ToolMetadata, implementation: ToolImplementation, options: RegisterOptions = {}): void {
    const issues: Issue[] = [];
    const name = typeof metadata?.name === 'string' ? metadata.name : '';
    if (name.trim() === '') issues.push({ path: 'name', message: 'Tool name is required' });
    else if (!toolNamePattern.test(name) || name.length > 64) {
      issues.push({
        path: 'name',
        message:
          'must start with a lower-case letter and contain only lower-case letters, digits and hyphens (at most 64)',
      });
    } else if (this.entries.has(name) && !options.overwrite) {
      issues.push({
        path: 'name',
        message: `Tool "${name}" is already registered (pass overwrite: true to replace it)`,
      });
    }
    if (typeof metadata?.description !== 'string' || metadata.description.trim() === '') {
      issues.push({ path: 'description', message: 'Tool description is required' });
    }
    if (typeof implementation !== 'function') issues.push({ path: 'implementation', message: 'must be a function' });
    if (metadata?.parameters !== undefined && metadata.inputSchema !== undefined) {
      issues.push({ path: 'parameters', message: 'give either parameters or inputSchema, not both' });
    }
    const inputSchema = issues.length === 0 ? toInputSchema(metadata, issues) : undefined;
    if (issues.length > 0 || !inputSchema) {
      throw new ValidationError({
        issues,
        message: `Cannot register tool${name ? ` "${name}"` : ''}: ${issues.map((issue) => `${issue.path}: ${issue.message}`).join('; ')}`,
      });
    }
    const entry: ToolRegistryEntry = {
      metadata: { ...metadata },
      implementation,
      inputSchema,
      registeredAt: new Date(),
      version: options.version ?? '1.0.0',
      enabled: !options.disabled,
      tags: [...(options.tags ?? [])],
    };
    if (options.category !== undefined) entry.category = options.category;
    this.entries.set(name, entry);
    this.revision += 1;
  }

  unregister(name: string): boolean {
    const removed = this.entries.delete(name);
    if (removed) this.revision += 1;
    return removed;
  }

  enable(name: string): void {
    this.setEnabled(name, true);
  }

  disable(name: string): void {
    this.setEnabled(name, false);
  }

  get(name: string): ToolRegistryEntry | undefined {
    return this.entries.get(name);
  }

  getVersion(name: string): string | undefined {
    return this.entries.get(name)?.version;
  }

  list(filter: ToolRegistryListFilter = {}): ToolRegistryEntry[] {
    return [...this.entries.values()].filter(
      (entry) =>
        (filter.enabled === undefined || entry.enabled === filter.enabled) &&
        (filter.category === undefined || entry.category === filter.category) &&
        (filter.tags === undefined || filter.tags.every((tag) => entry.tags.includes(tag))),
    );
  }

  async listAllTools(): Promise<ToolInfo[]> {
    return this.list({ enabled: true }).map((entry) => this.toToolInfo(entry));
  }

  async callTool(
    serverId: string,
    toolName: string,
    args: Record<string, unknown>,
    options: ToolCallOptions = {},
  ): Promise<ToolCallResult> {
    const toolKey = formatToolKey(serverId, toolName);
    const entry = serverId === this.serverId ? this.entries.get(toolName) : undefined;
    if (!entry) throw new ToolNotFoundError({ toolName: toolKey });
    if (!entry.enabled) throw new ToolDisabledError({ toolName: toolKey, reason: 'disabled in the registry' });
    if (hasInputRetry(options)) {
      // Only a 2026-07-28 backend answers input_required: a retry here is a caller's mix-up, not to be dropped.
      const message = `${toolKey} is an in-process tool: it never answers input_required, so it takes no inputResponses or requestState`;
      throw new ValidationError({ issues: [{ path: 'inputResponses', message }], message });
    }
    const controller = new AbortController();
    const onAbort = () => controller.abort(options.signal?.reason);
    if (options.signal?.aborted) throw options.signal.reason;
    options.signal?.addEventListener('abort', onAbort, { once: true });
    // The same per-call timeout as a backend call: each progress report restarts it.
    const timeoutMs = options.timeoutMs ?? this.options.timeoutMs ?? 60_000;
    let timer: NodeJS.Timeout | undefined;
    const armTimeout = () => {
      if (timer) clearTimeout(timer);
      timer = setTimeout(
        () =>
          controller.abort(
            new TimeoutError({ timeoutMs, message: `Tool ${toolKey} did not finish within ${timeoutMs} ms` }),
          ),
        timeoutMs,
      );
    };
    armTimeout();
    try {
      const running = Promise.resolve().then(() =>
        entry.implementation(args, {
          signal: controller.signal,
          toolKey,
          reportProgress: (progress) => {
            if (controller.signal.aborted) return;
            armTimeout();
            options.onProgress?.(progress);
          },
        }),
      );
      // An implementation that ignores its signal must not hold the caller after a cancel.
      const cancelled = new Promise<never>((_, reject) => {
        controller.signal.addEventListener('abort', () => reject(controller.signal.reason), { once: true });
      });
      const value = await Promise.race([running, cancelled]);
      return toCallToolResult(value);
    } catch (error) {
      if (controller.signal.aborted || SearchMcpError.isInstance(error)) throw error;
      return {
        isError: true,
        content: [{ type: 'text', text: errorMessage(error) }],
      };
    } finally {
      if (timer) clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
    }
  }

  private setEnabled(name: string, enabled: boolean): void {
    const entry = this.entries.get(name);
    if (!entry) throw new ToolNotFoundError({ toolName: formatToolKey(this.serverId, name) });
    if (entry.enabled === enabled) return;
    entry.enabled = enabled;
    this.revision += 1;
  }

  private toToolInfo(entry: ToolRegistryEntry): ToolInfo {
    const { metadata } = entry;
    const info: ToolInfo = {
      toolKey: formatToolKey(this.serverId, metadata.name),
      toolName: metadata.name,
      serverName: this.serverId,
      description: metadata.description,
      inputSchema: entry.inputSchema,
    };
    if (metadata.title !== undefined) info.title = metadata.title;
    if (metadata.outputSchema !== undefined) info.outputSchema = metadata.outputSchema;
    if (metadata.annotations !== undefined) info.annotations = metadata.annotations;
    if (this.options.description !== undefined) info.serverDescription = this.options.description;
    if (this.options.projects !== undefined) info.serverProjects = this.options.projects;
    if (entry.category !== undefined) info.category = entry.category;
    if (entry.tags.length > 0) info.tags = entry.tags;
    return info;
  }
}

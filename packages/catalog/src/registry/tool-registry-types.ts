/** What hosts register in a `ToolRegistry`, and how (types only). */
import type { JsonSchemaObject, ToolAnnotations, ToolProgress } from '@search-mcp/shared';

/** A parameter of `ToolMetadata.parameters` (packages/catalog/README.md, "ToolRegistry"); a JSON Schema property. */
export interface ToolParameter {
  name: string;
  type: 'string' | 'number' | 'integer' | 'boolean' | 'object' | 'array';
  description: string;
  required?: boolean;
  default?: unknown;
  enum?: unknown[];
  pattern?: string;
  minimum?: number;
  maximum?: number;
}

/** What a host registers: a name, a description and `parameters`, or an MCP-style `inputSchema` instead. */
export interface ToolMetadata {
  /** Lower-case letters, digits and hyphens, starting with a letter (packages/catalog/README.md, "ToolRegistry"). */
  name: string;
  description: string;
  title?: string;
  parameters?: ToolParameter[];
  inputSchema?: JsonSchemaObject;
  outputSchema?: JsonSchemaObject;
  annotations?: ToolAnnotations;
}

export interface ToolExecutionContext {
  /** Aborted when the caller cancels or the call times out. */
  signal: AbortSignal;
  /** Sends a progress notification to the caller (no-op when it asked for none). */
  reportProgress: (progress: ToolProgress) => void;
  toolKey: string;
}

/**
 * The code of a registered tool. Return a `CallToolResult`-shaped object (`{ content: [...] }`) to control the
 * result; any other value becomes text content (and `structuredContent` when it is a plain object). Throwing a
 * Search MCP error (e.g. `ValidationError`) fails the call with it; any other throw becomes an `isError` result, as
 * MCP servers report tool failures, so a model can read it.
 */
export type ToolImplementation = (
  args: Record<string, unknown>,
  context: ToolExecutionContext,
) => unknown | Promise<unknown>;

export interface RegisterOptions {
  version?: string;
  category?: string;
  tags?: string[];
  /** Replace a tool of the same name instead of failing. */
  overwrite?: boolean;
  /** Start disabled. Default false. */
  disabled?: boolean;
}

export interface ToolRegistryEntry {
  metadata: ToolMetadata;
  implementation: ToolImplementation;
  inputSchema: JsonSchemaObject;
  registeredAt: Date;
  version: string;
  enabled: boolean;
  category?: string;
  tags: string[];
}

export interface ToolRegistryListFilter {
  category?: string;
  /** Tools having every one of these tags. */
  tags?: string[];
  enabled?: boolean;
}

export interface ToolRegistryOptions {
  /** The server id the tools join the catalog under (`local:my-tool`). Default `local`. */
  serverId?: string;
  /** Shown with the tools and searched with them. */
  description?: string;
  /** Projects that see these tools (docs/projects-and-tokens.md); absent: callers without a project. */
  projects?: string[];
  /** Per-call timeout of registered tools unless the call gives one; progress restarts it. Default 60,000 ms. */
  timeoutMs?: number;
}

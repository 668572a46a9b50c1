/** A JSON Schema object as MCP carries it (`inputSchema`, `outputSchema`). Passed through untouched. */
export type JsonSchemaObject = { type: 'object'; properties?: Record<string, unknown>; required?: string[] } & Record<
  string,
  unknown
>;

/** MCP tool annotations (hints); unknown fields are kept. */
export interface ToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
  [key: string]: unknown;
}

/**
 * A tool definition exactly as a backend sent it in `tools/list` (after lenient validation of `name` and
 * `inputSchema`). Every other field (`icons`, `_meta`, `execution`, future ones) is kept, so proxy mode can pass
 * definitions through unchanged.
 */
export type ToolDefinition = {
  name: string;
  title?: string;
  description?: string;
  inputSchema: JsonSchemaObject;
  outputSchema?: JsonSchemaObject;
  annotations?: ToolAnnotations;
} & Record<string, unknown>;

/**
 * One tool of the catalog (the tools of the cloud search API, docs/cloud-search.md, plus what the catalog needs). The
 * unit every package exchanges: the client manager lists them, the catalog searches them, meta-tools exposes them.
 */
export interface ToolInfo {
  /** `server:tool` (docs/tool-names.md, "Keys and listed names"). */
  toolKey: string;
  /**
   * The tool's name: on its own server, or the new name a config override (`tools.<name>.name`) gave it, which
   * `toolKey` then carries too.
   */
  toolName: string;
  /** The backend's own name of a tool an override renamed: calls reach the backend under this one. */
  originalName?: string;
  /** The server id (the normalized `mcpServers` key). */
  serverName: string;
  title?: string;
  /** Empty string when the backend gave none. */
  description: string;
  inputSchema: JsonSchemaObject;
  outputSchema?: JsonSchemaObject;
  annotations?: ToolAnnotations;
  /** The definition as received, for pass-through. */
  definition?: ToolDefinition;
  /** The server's `description` from the config (searched with the tool). */
  serverDescription?: string;
  /**
   * The server's `projects` from the config: absent means the tool belongs to no project
   * (docs/projects-and-tokens.md, "Visibility").
   */
  serverProjects?: readonly string[];
  /** `category` and `tags` of the server (or registry tool), for filters. */
  category?: string;
  tags?: readonly string[];
  /**
   * The tool comes from the server's list kept from an earlier run, shown while the server is still starting
   * (README, "Discovery before the servers are up"); the live list replaces it once the server is up.
   */
  cached?: true;
}

/**
 * The MCP shapes Search MCP's own seams carry (JSON-RPC messages, the transport shape, capabilities, implementation
 * info, tool-call results, …), as plain TypeScript types. No SDK is imported here: a package's public API is typed
 * with these, so the next SDK major changes one adapter per side instead of every signature (see
 * `packages/client-manager/README.md`). Each is written to be structurally compatible with both SDK generations'
 * types (`@modelcontextprotocol/sdk` 1.x and `@modelcontextprotocol/client`/`core` 2.x): an SDK object is one of ours
 * without a cast, and ours go into an SDK where it takes plain JSON. Unknown fields pass through (index signatures).
 */

/** A JSON-RPC request id. */
export type McpRequestId = string | number;

/** The progress token a request may carry in `_meta`. */
export type McpProgressToken = string | number;

/** The `_meta` of a request or notification. */
export interface McpRequestMeta {
  [key: string]: unknown;
  progressToken?: McpProgressToken | undefined;
  'io.modelcontextprotocol/related-task'?: { taskId: string } | undefined;
}

/** The params of a request or notification: anything, with an optional `_meta`. */
export interface McpParams {
  [key: string]: unknown;
  _meta?: McpRequestMeta | undefined;
}

/** A result: anything, with an optional `_meta`. */
export interface McpResult {
  [key: string]: unknown;
  _meta?: Record<string, unknown> | undefined;
}

export type JsonRpcRequest = {
  jsonrpc: '2.0';
  id: McpRequestId;
  method: string;
  params?: McpParams | undefined;
};

export type JsonRpcNotification = {
  jsonrpc: '2.0';
  method: string;
  params?: McpParams | undefined;
};

export type JsonRpcResultResponse = {
  jsonrpc: '2.0';
  id: McpRequestId;
  result: McpResult;
};

export type JsonRpcErrorResponse = {
  jsonrpc: '2.0';
  /** Absent when the request's id could not be read (both SDKs type it so; JSON-RPC 2.0 §5 writes `null`). */
  id?: McpRequestId | undefined;
  error: { code: number; message: string; data?: unknown };
};

/** One JSON-RPC 2.0 message on an MCP transport. */
export type JsonRpcMessage = JsonRpcRequest | JsonRpcNotification | JsonRpcResultResponse | JsonRpcErrorResponse;

/** What a transport tells about a received message (HTTP request info and auth on a server's transport). */
export interface McpMessageExtraInfo {
  requestInfo?: unknown;
  authInfo?: unknown;
}

/**
 * A transport's message callback. Declared through a method so its parameters compare bivariantly: the SDK sets
 * its own (narrower) handler on our transports and our code sets ours on the SDK's, both without a cast.
 */
export type McpMessageHandler = {
  handle(message: JsonRpcMessage, extra?: McpMessageExtraInfo): void;
}['handle'];

/** Per-message send options; the SDKs' transports read the fields they know (`relatedRequestId`, …). */
export interface McpTransportSendOptions {
  relatedRequestId?: McpRequestId | undefined;
  resumptionToken?: string | undefined;
  onresumptiontoken?: ((token: string) => void) | undefined;
}

/**
 * The transport shape both SDK generations drive (`start/send/close/onmessage/onclose/onerror`, an optional
 * `sessionId` and `setProtocolVersion`).
 */
export interface McpTransport {
  start(): Promise<void>;
  send(message: JsonRpcMessage, options?: McpTransportSendOptions): Promise<void>;
  close(): Promise<void>;
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onmessage?: McpMessageHandler | undefined;
  sessionId?: string | undefined;
  setProtocolVersion?: ((version: string) => void) | undefined;
}

/** `fetch` as a remote transport calls it. */
export type McpFetchLike = (url: string | URL, init?: RequestInit) => Promise<Response>;

/** Who a client or server is (`clientInfo` / `serverInfo`). */
export interface McpImplementation {
  name: string;
  version: string;
  title?: string | undefined;
  websiteUrl?: string | undefined;
  description?: string | undefined;
  icons?:
    | Array<{
        src: string;
        mimeType?: string | undefined;
        sizes?: string[] | undefined;
        theme?: 'light' | 'dark' | undefined;
      }>
    | undefined;
}

/** What a client declares it can answer (sampling, elicitation, roots, tasks, extensions, …). */
export interface McpClientCapabilities {
  [key: string]: unknown;
  experimental?: Record<string, object> | undefined;
  sampling?: Record<string, unknown> | undefined;
  elicitation?: Record<string, unknown> | undefined;
  roots?: { [key: string]: unknown; listChanged?: boolean | undefined } | undefined;
  tasks?: Record<string, unknown> | undefined;
}

/** What a server declares it offers (tools, resources, prompts, logging, completions, tasks, extensions, …). */
export interface McpServerCapabilities {
  [key: string]: unknown;
  experimental?: Record<string, object> | undefined;
  logging?: object | undefined;
  completions?: object | undefined;
  prompts?: { [key: string]: unknown; listChanged?: boolean | undefined } | undefined;
  resources?:
    | { [key: string]: unknown; subscribe?: boolean | undefined; listChanged?: boolean | undefined }
    | undefined;
  tools?: { [key: string]: unknown; listChanged?: boolean | undefined } | undefined;
  tasks?: Record<string, unknown> | undefined;
}

/** A text content block. */
export interface McpTextContent {
  [key: string]: unknown;
  type: 'text';
  text: string;
}

/** An image or audio content block (base64 `data`). */
export interface McpBinaryContent {
  [key: string]: unknown;
  type: 'image' | 'audio';
  data: string;
  mimeType: string;
}

/** A link to a resource the client may read. */
export interface McpResourceLinkContent {
  [key: string]: unknown;
  type: 'resource_link';
  uri: string;
  name: string;
}

/** A resource embedded in the content (`text` or base64 `blob`). */
export interface McpEmbeddedResourceContent {
  [key: string]: unknown;
  type: 'resource';
  resource: { [key: string]: unknown; uri: string; mimeType?: string | undefined };
}

/** One block of a tool result's, prompt message's or sampling message's content. */
export type McpContentBlock = McpTextContent | McpBinaryContent | McpResourceLinkContent | McpEmbeddedResourceContent;

/** The result of `tools/call` (`CallToolResult`); a forwarded result keeps what the backend sent. */
export interface McpCallToolResult {
  [key: string]: unknown;
  content: McpContentBlock[];
  structuredContent?: unknown;
  isError?: boolean | undefined;
  _meta?: Record<string, unknown> | undefined;
}

/**
 * `@search-mcp/server`: builds the MCP server AI clients see from a tool catalog and a status source, and
 * forwards the rest of MCP (resources, prompts, completions, logging, tasks, backends' requests to the client)
 * through a forwarding hub shared by every session of a runtime.
 */
export { createSearchMcpServer } from './create-search-mcp-server.js';
export type { ListedToolFinder, SearchMcpServer } from './search-mcp-server.js';
export type { RequestExtra } from './request-extra-types.js';
export { clientEraOf } from './eras/client-era-of.js';
export type { ClientFacingEra } from './eras/client-facing-era.js';
export type { SearchMcpServerOptions, ServerStatusSource } from './search-mcp-server-options.js';
export type { AuditRecord, AuditSink } from './audit/audit-record.js';
export { ForwardingHub, type ForwardingHubOptions } from './forwarding-hub.js';
export type { DuplicateResource } from './resources/resource-routes.js';
export type { ListenResourceSubscription } from './resources/listen-resource-subscriptions.js';
export { type StdioListenAdapterOptions, withListenSubscriptions } from './resources/stdio-listen-adapter.js';
export { claimsModernEnvelope, PassThroughTransport, StdioEntryOpening } from './stdio-entry-opening.js';
export { callerFromMeta } from './caller-from-meta.js';
export {
  ClientSessions,
  type ClientSessionsOptions,
  forwardedClientCapabilities,
  type ReverseRequest,
  type UrlElicitationAction,
  type UrlElicitationRequest,
} from './sessions/client-sessions.js';
export type { ClientSession, ClientOrigin } from './sessions/client-session.js';
export { PendingInputs, type PendingInputsEvents, type PendingInputsOptions } from './input/pending-inputs.js';
export type { ParkedCall } from './input/parked-call.js';
export type {
  BackendGateway,
  BackendGatewayEvents,
  BackendRequestOptions,
  CompleteParams,
} from './forwarding/backend-gateway.js';
export { defaultInstructionsBudget, type InstructionsBudget } from './backend-instructions.js';

import type {
  Logger,
  McpImplementation,
  SecretRedactor,
  ServerConfig,
  ServerState,
  ServerStatus,
  ToolInfo,
} from '@search-mcp/shared';
import type { ServerAuthorization } from '../oauth/server-authorization.js';
import type { ReverseRequestRouter } from '../reverse/reverse-request-types.js';
import type { ConnectionFactory } from './connection-factory.js';
import type { LogRateLimit } from './log-rate-limit.js';
import type { ProtocolErrors } from './protocol-errors.js';
import type { EmitManagerEvent } from './notification-relays.js';
import type { RestartPolicy } from './restart-policy.js';

/** What a `ServerConnection` is built with (types only). */
export interface ServerConnectionSettings {
  config: ServerConfig;
  /** The manager's logger (secrets already masked); the connection adds its server id. */
  logger: Logger;
  clientInfo: McpImplementation;
  restartPolicy: RestartPolicy;
  /** Opens one connection (spawn + initialize, or a remote connect). */
  openConnection: ConnectionFactory;
  /** Masks secrets in `lastError` and in every error this connection throws. */
  redactor: SecretRedactor;
  /** The manager's default overall limit of a call; see `CallToolOptions.maxTotalTimeoutMs`. */
  maxTotalTimeoutMs?: number;
  /** Answers the backend's sampling, elicitation and roots requests; without one none is declared. */
  reverseRequests?: ReverseRequestRouter;
  logRateLimit: LogRateLimit;
  /** How the manager reads its SDKs' errors (one per manager, shared by its connections). */
  errors: ProtocolErrors;
  /** The manager's events (log messages, resource and prompt changes, task status). */
  emit: EmitManagerEvent;
  onStatusChange: (status: ServerStatus, previous: ServerState) => void;
  onToolsChanged: (serverId: string, tools: readonly ToolInfo[]) => void;
  /** OAuth to this server (a remote one whose `oauth` is not `false`): wraps its fetch, reports its state. */
  authorization?: ServerAuthorization;
}

import {
  collectConfigSecrets,
  createGrowingSecretRedactor,
  createJsonLineLogger,
  type Logger,
  type ResolvedConfig,
  type SecretCollector,
  type SecretRedactor,
  type ServerConfig,
  type ServerState,
  type ServerStatus,
  type ToolInfo,
  type McpImplementation,
} from '@search-mcp/shared';
import { defaultLogRateLimit } from './connection/log-rate-limit.js';
import type { EmitManagerEvent } from './connection/notification-relays.js';
import { createConnectionFactory } from './connection/open-connection.js';
import { defaultRestartPolicy } from './connection/restart-policy.js';
import { ServerConnection } from './connection/server-connection.js';
import { createRedactingLogger } from './logging/redacting-logger.js';
import type { McpClientManagerOptions } from './mcp-client-manager-options.js';
import { packageVersion } from './package-version.js';
import { type ProcessWatchdog, processWatchdog } from './process/process-watchdog.js';
import { defaultWatchdogScript } from './process/watchdog-script.js';
import { ProtocolErrors } from './connection/protocol-errors.js';
import { createOAuthWiring } from './oauth/oauth-wiring.js';

const packageInfo: McpImplementation = { name: 'search-mcp', version: packageVersion };

export interface ManagerHooks {
  emit: EmitManagerEvent;
  onStatusChange: (status: ServerStatus, previous: ServerState) => void;
  onToolsChanged: (serverId: string, tools: readonly ToolInfo[]) => void;
}

/** One caller's own connection to a per-user server (`src/per-user/`): who, and the pool's hooks instead of the manager's. */
export interface CallerWiring {
  subject: string;
  hooks: ManagerHooks;
}

export interface ManagerWiring {
  logger: Logger;
  redactor: SecretRedactor;
  /**
   * A connection for one server entry, with the manager's settings (not started). With `caller`: that caller's own
   * connection to a per-user server (their own OAuth credentials, the pool's hooks).
   */
  createConnection: (config: ServerConfig, caller?: CallerWiring) => ServerConnection;
  /** A reload brought this config: its secrets are masked from now on (when the manager built the redactor). */
  addConfig: (config: ResolvedConfig) => void;
  /** Ends every prestarted server no connection adopted (`McpClientManagerOptions.prestarted`). */
  discardPrestarted: () => void;
}

/** Everything the manager builds once from its options: logger, redactor, connection factory, watchdog. */
export function wireManager(
  config: ResolvedConfig,
  options: McpClientManagerOptions,
  hooks: ManagerHooks,
): ManagerWiring {
  // Without a redactor of the host's, the manager masks the secrets of every config it is given: a reload adds the
  // new config's secrets (old ones stay masked, since processes started with them may still print them).
  const reloadable = options.redactor ? undefined : createGrowingSecretRedactor(collectConfigSecrets(config));
  const redactor = options.redactor ?? (reloadable as SecretRedactor);
  const logger = createRedactingLogger(
    options.logger ?? createJsonLineLogger({ level: 'warn', write: (line) => process.stderr.write(line) }),
    redactor,
  );
  const prestarted = [...(options.prestarted ?? [])];
  const openConnection = createConnectionFactory({
    prestarted,
    stderrTailLines: options.stderrTailLines ?? 20,
    shutdownGraceMs: options.shutdownGraceMs ?? 2000,
    watchdog: watchdog(options.watchdogScript, config, logger),
    maxMessageSize: options.maxMessageSize ?? 64 * 1024 * 1024,
    redactor,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  const restartPolicy = { ...defaultRestartPolicy, ...options.restartPolicy };
  const logRateLimit = { ...defaultLogRateLimit, ...options.logRateLimit };
  // This manager's own: another manager in the process reads only the SDK errors of the modules it loaded.
  const errors = new ProtocolErrors();
  // Tokens obtained at run time are masked like the config's secrets: by the manager's redactor, or by the host's
  // own when it can grow (`createGrowingSecretRedactor`).
  const growing = reloadable ?? (isSecretCollector(options.redactor) ? options.redactor : undefined);
  let warned = false;
  const oauth = createOAuthWiring(options, logger, (secret) => {
    if (growing) growing.add([secret]);
    else if (!warned) {
      warned = true;
      logger.warn(
        'the redactor given to McpClientManager cannot learn new secrets (make it with createGrowingSecretRedactor): OAuth tokens obtained at run time are not masked by it',
      );
    }
  });
  return {
    logger,
    redactor,
    addConfig: (next) => reloadable?.add(collectConfigSecrets(next)),
    discardPrestarted: () => {
      for (const entry of prestarted.splice(0)) entry.discard();
    },
    createConnection: (serverConfig, caller) => {
      let connection: ServerConnection | undefined;
      const connectionHooks = caller?.hooks ?? hooks;
      const authorization = oauth.forServer(
        serverConfig,
        {
          onAuthorized: () => connection?.authorized(),
          onFailed: (error) => connection?.authorizationEnded(error),
        },
        caller?.subject,
      );
      connection = new ServerConnection({
        config: serverConfig,
        logger,
        clientInfo: options.clientInfo ?? packageInfo,
        restartPolicy,
        openConnection,
        redactor,
        logRateLimit,
        errors,
        emit: connectionHooks.emit,
        ...(options.reverseRequests ? { reverseRequests: options.reverseRequests } : {}),
        ...(options.maxTotalTimeoutMs !== undefined ? { maxTotalTimeoutMs: options.maxTotalTimeoutMs } : {}),
        onStatusChange: connectionHooks.onStatusChange,
        onToolsChanged: connectionHooks.onToolsChanged,
        ...(authorization ? { authorization } : {}),
      });
      return connection;
    },
  };
}

/** The process watchdog of this host, or undefined without one (see the `watchdogScript` option). */
function watchdog(
  option: string | false | undefined,
  config: ResolvedConfig,
  logger: Logger,
): ProcessWatchdog | undefined {
  if (option === false) return undefined;
  const script = option ?? defaultWatchdogScript();
  if (script !== undefined) return processWatchdog(script);
  if (Object.values(config.mcpServers).some((server) => server.transport === 'stdio')) {
    logger.warn(
      'watchdog.cjs is missing beside @search-mcp/client-manager (bundled?): stdio servers will outlive this process if it is killed with SIGKILL',
    );
  }
  return undefined;
}

function isSecretCollector(redactor: SecretRedactor | undefined): redactor is SecretRedactor & SecretCollector {
  return typeof (redactor as Partial<SecretCollector> | undefined)?.add === 'function';
}

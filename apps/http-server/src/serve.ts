import { type ClusterStore, createMemoryClusterStore, createRedisClusterStore } from '@search-mcp/cluster';
import {
  collectConfigSecrets,
  ConfigError,
  createGrowingSecretRedactor,
  createJsonLineLogger,
  errorMessage,
  type Logger,
  type ResolvedConfig,
} from '@search-mcp/shared';
import { findAndLoadConfig } from '@search-mcp/shared/node';
import { createSearchMcpRuntime, handleShutdownSignals, startHotReload } from '@search-mcp/runtime';
import { allowedHostsFor, loopbackHostNames } from './access/allowed-hosts.js';
import { loadOrCreateToken } from './access/generated-token.js';
import type { AccessToken } from './access/token-verifier.js';
import type { CommandLine } from './command-line.js';
import { serverProcessOAuth } from './backend-oauth/oauth-redirect-url.js';
import { buildHttpApp } from './http-app.js';
import { httpAppDefaults } from './http-app-options.js';
import { urlBelow } from './public-url.js';
import { startTraceExport } from './telemetry/trace-exporter.js';
import { packageVersion } from './version.js';

/** Shorter configured tokens are easy to guess; the failed-authentication limit only slows guessing down. */
const shortTokenLength = 24;
/** What the shutdown allows after the drain and the grace: the app's close, then backends that must be killed. */
const backendStopAllowanceMs = 8000;

/**
 * `search-mcp-http` (serve): loads the config, starts the runtime and the app, and shuts both down through the
 * runtime's one shutdown path on SIGINT, SIGTERM and SIGHUP (calls in flight are answered, then backends stop).
 * The config file is watched (off with `--no-watch` or `SEARCH_MCP_WATCH=0`): server edits apply live and every session is told
 * its tools changed; `auth` is read at start only.
 */
export async function serve(commandLine: CommandLine, fail: (message: string, code: number) => never): Promise<void> {
  let loaded: Awaited<ReturnType<typeof findAndLoadConfig>>;
  try {
    loaded = await findAndLoadConfig({
      ...(commandLine.config !== undefined ? { cliPath: commandLine.config } : {}),
      env: process.env,
      cwd: process.cwd(),
    });
  } catch (error) {
    return fail(ConfigError.isInstance(error) ? error.message : errorMessage(error), 2);
  }
  const { config, path: configPath } = loaded;

  const { tokens, generated } = accessTokens(config, configPath);
  const oauth = config.auth.oauth;
  const allowedHosts = allowedHostsFor(commandLine.host, commandLine.allowedHosts) ?? null;
  if (oauth && commandLine.publicUrl === undefined && !isLoopback(commandLine.host)) {
    // Tokens are minted for `<URL>/mcp`, and per-user authorizations come back to `<URL>/oauth/callback`: the URL
    // people reach the server at (behind a proxy, its https address), which the bound address does not tell
    // (docs/oauth-in-front.md).
    return fail(
      `auth.oauth: listening on ${commandLine.host}, pass --public-url with the URL clients reach this server at (e.g. https://search.example.com)`,
      2,
    );
  }
  // One redactor for every printer: the log, response bodies, MCP messages and audit (packages/shared/README.md,
  // "Secrets"). It learns the secrets of each reloaded config before that config's servers start.
  const redactor = createGrowingSecretRedactor([
    ...collectConfigSecrets(config),
    ...tokens.map((token) => token.token),
  ]);
  const logger = createJsonLineLogger({
    level: commandLine.logLevel,
    write: (line) => process.stderr.write(line),
    redactor,
  });
  if (generated?.created) {
    process.stderr.write(
      `\nsearch-mcp-http: the config has no auth.tokens, so an access token was generated and saved to\n` +
        `  ${generated.file} (readable only by you). It is shown only this once:\n\n  ${generated.token.token}\n\n` +
        `Send it as "Authorization: Bearer <token>" (MCP clients: a header in their server config).\n\n`,
    );
  } else if (generated) {
    logger.info('using the generated access token', { file: generated.file });
  }
  warnAboutAccess(config, commandLine, logger);
  // Before the first span: OTLP export when the OTEL_* variables ask for it (docs/console.md, "Telemetry").
  const tracing = startTraceExport(process.env, logger);

  // The state replicas share (docs/scale-out.md): Redis with `cluster` in the config, else this process's own. Read
  // at start only. An unreachable Redis stops the start here, with the reason, rather than serving half a cluster.
  let clusterStore: ClusterStore;
  try {
    clusterStore = config.cluster
      ? await createRedisClusterStore({
          url: config.cluster.redis.url,
          ...(config.cluster.redis.keyPrefix !== undefined ? { keyPrefix: config.cluster.redis.keyPrefix } : {}),
          logger,
        })
      : createMemoryClusterStore();
  } catch (error) {
    await tracing?.shutdown();
    return fail(`cluster: ${errorMessage(error)}`, 1);
  }
  logger.info('cluster store', { store: clusterStore.description, shared: clusterStore.shared });

  // Where a per-user server's authorization comes back to (`/oauth/callback`): known once the app listens.
  let callbackBase: string | undefined = commandLine.publicUrl;
  const runtime = createSearchMcpRuntime({
    config,
    logger,
    tokens: tokens.map((token) => ({ id: token.id, ...(token.projects ? { projects: token.projects } : {}) })),
    serverInfo: { name: 'search-mcp', version: packageVersion },
    ...(commandLine.mode ? { mode: commandLine.mode } : {}),
    manager: {
      // OAuth tokens the manager obtains join the app's redactor: masked in REST bodies, MCP messages, log and audit.
      redactor,
      // Tokens go to the default store (the OS keyring, else a 0600 file; SEARCH_MCP_OAUTH_FILE), or to the cluster store
      // when `cluster` is set (docs/oauth.md, "Storage").
      oauth: serverProcessOAuth(() => callbackBase),
    },
    clusterStore,
  });
  const http = await buildHttpApp({
    runtime,
    logger,
    redactor,
    tokens,
    allowAnonymous: config.auth.allowAnonymous,
    ...(oauth ? { oauth } : {}),
    stateless: commandLine.stateless,
    corsOrigins: commandLine.corsOrigins,
    allowedHosts,
    ...(commandLine.rateLimitPerMinute !== undefined ? { rateLimitPerMinute: commandLine.rateLimitPerMinute } : {}),
    ...(commandLine.maxSessions !== undefined ? { maxSessions: commandLine.maxSessions } : {}),
    ...(commandLine.maxSessionsPerToken !== undefined ? { maxSessionsPerToken: commandLine.maxSessionsPerToken } : {}),
    ...(commandLine.maxListenStreams !== undefined ? { maxListenStreams: commandLine.maxListenStreams } : {}),
    ...(commandLine.maxListenStreamsPerToken !== undefined
      ? { maxListenStreamsPerToken: commandLine.maxListenStreamsPerToken }
      : {}),
    ...(commandLine.shutdownGraceMs !== undefined ? { shutdownGraceMs: commandLine.shutdownGraceMs } : {}),
    ...(commandLine.drainMs !== undefined ? { drainMs: commandLine.drainMs } : {}),
    ...(commandLine.publicUrl !== undefined ? { publicUrl: commandLine.publicUrl } : {}),
    configPath,
    clusterStore,
  });
  let stopReloading: (() => Promise<void>) | undefined;
  handleShutdownSignals({
    logger,
    // The drain, the grace for calls in flight, then the backends' own stop (their escalation to SIGKILL).
    forceExitAfterMs:
      (commandLine.drainMs ?? httpAppDefaults.drainMs) +
      (commandLine.shutdownGraceMs ?? httpAppDefaults.shutdownGraceMs) +
      backendStopAllowanceMs,
    close: async () => {
      // No reload may start servers while they are being stopped.
      await stopReloading?.();
      await http.close();
      await runtime.close();
      // Last: the app and the runtime may write to it while they close.
      await clusterStore.close();
      await tracing?.shutdown();
    },
  });

  try {
    await http.app.listen({ host: commandLine.host, port: commandLine.port });
  } catch (error) {
    await runtime.close();
    await clusterStore.close();
    await tracing?.shutdown();
    return fail(`cannot listen on ${commandLine.host}:${commandLine.port}: ${errorMessage(error)}`, 1);
  }
  const address = http.app.server.address();
  const url =
    typeof address === 'object' && address
      ? `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`
      : String(address);
  callbackBase ??= url;
  logger.info('search-mcp-http listening', {
    url,
    mcp: `${url}/mcp`,
    config: configPath,
    mode: runtime.mode,
    stateless: commandLine.stateless,
    ...(oauth ? { oauthIssuer: oauth.issuer, resource: urlBelow(commandLine.publicUrl ?? url, 'mcp') } : {}),
  });
  void runtime.startBackends();
  // The app authenticates with the tokens it started with: an `auth` edit needs a restart.
  const reloader = startHotReload(runtime, {
    configPath,
    logger,
    redactor,
    fixedByHost: ['auth'],
    watch: commandLine.watch,
    // The console's event log (docs/console.md, `GET /v1/events`).
    onReloaded: (reload) => http.console.reloaded(reload),
    onReloadFailed: (reason) => http.console.reloadFailed(reason),
  });
  if (reloader) stopReloading = () => reloader.close();
}

function isLoopback(host: string): boolean {
  return loopbackHostNames.includes(host);
}

/**
 * The tokens the app accepts: the config's, else (without anonymous access or `auth.oauth`, through which callers log
 * in) one generated at first start.
 */
function accessTokens(config: ResolvedConfig, configPath: string) {
  const tokens: AccessToken[] = config.auth.tokens.map((token) => ({
    id: token.id,
    token: token.token,
    ...(token.projects ? { projects: token.projects } : {}),
  }));
  if (tokens.length > 0 || config.auth.allowAnonymous || config.auth.oauth) return { tokens, generated: undefined };
  const generated = loadOrCreateToken(configPath);
  return { tokens: [generated.token], generated };
}

function warnAboutAccess(config: ResolvedConfig, commandLine: CommandLine, logger: Logger): void {
  if (!isLoopback(commandLine.host) && config.auth.allowAnonymous) {
    logger.warn('anonymous access on a non-loopback address: anyone who can reach it can run your tools', {
      host: commandLine.host,
    });
  }
  for (const token of config.auth.tokens) {
    if (token.token.length < shortTokenLength) {
      logger.warn(`auth token '${token.id}' is shorter than ${shortTokenLength} characters and easy to guess`, {
        token: token.id,
      });
    }
  }
}

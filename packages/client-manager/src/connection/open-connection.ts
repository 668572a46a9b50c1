import type { McpFetchLike, McpTransport, SecretRedactor } from '@search-mcp/shared';
import type { ProcessWatchdog } from '../process/process-watchdog.js';
import { inheritedEnvironment } from '../process/inherited-environment.js';
import { adoptPrestartedServer, type DiscardReason, type PrestartedServer } from '../process/prestarted-server.js';
import { StdioProcessTransport } from '../process/stdio-process-transport.js';
import { sandboxLaunch } from '../sandbox/sandbox-launch.js';
import type { ServerLaunch } from '../sandbox/server-launch.js';
import { ProgressOrderingTransport } from '../transport/progress-ordering-transport.js';
import type { BackendPeer, ProtocolEra } from './backend-peer.js';
import type { ConnectionFactory, ConnectionRequest, OpenedConnection } from './connection-factory.js';
import { probeInPlace, probeWaitMs } from './era/era-probe.js';
import type { PeerConnectOptions, PriorVerdict } from './era/prior-verdict.js';
import { connectRemote } from './remote-connection.js';
import { StartedTransport } from './started-transport.js';
import { chooseAutoEra } from './era/auto-era.js';

export interface ConnectionFactorySettings {
  stderrTailLines: number;
  shutdownGraceMs: number;
  /** Ends stdio servers' process groups if the host dies; undefined: no such protection. */
  watchdog: ProcessWatchdog | undefined;
  /** Longest stdio message in characters. */
  maxMessageSize: number;
  redactor: SecretRedactor;
  fetch?: McpFetchLike;
  /** Stdio servers started before the manager (`McpClientManagerOptions.prestarted`); each is taken out when used. */
  prestarted: PrestartedServer[];
}

const discardReasons: Record<DiscardReason, string> = {
  ended: 'it had already ended',
  launch: "its launch is not the config's",
  pinned: 'the entry pins its protocol era',
  foreign: 'another copy of @search-mcp/client-manager started it',
};

/** The factory the manager uses: stdio servers as watched child processes, remote ones over HTTP or SSE. */
export function createConnectionFactory(settings: ConnectionFactorySettings): ConnectionFactory {
  return (request) =>
    request.config.transport === 'stdio' ? openStdio(request, settings) : openRemote(request, settings);
}

async function openStdio(request: ConnectionRequest, settings: ConnectionFactorySettings): Promise<OpenedConnection> {
  const { config, logger } = request;
  if (config.transport !== 'stdio') throw new Error('not a stdio server');
  // Whatever the era, a server inherits the same variables; spawned before any SDK client module is loaded, so
  // that loading overlaps the server's own start.
  let launch: ServerLaunch = {
    command: config.command,
    args: config.args,
    env: { ...inheritedEnvironment(), ...config.env },
    ...(config.cwd !== undefined ? { cwd: config.cwd } : {}),
  };
  // A server that cannot run in its sandbox fails to start; it never runs without it (docs/trust.md).
  if (config.sandbox)
    launch = await sandboxLaunch(config.sandbox, { ...launch, configuredEnv: config.env, serverId: config.id });
  // A process started for this entry before the manager existed is adopted on the first spawn, if its launch is
  // this one; a sandboxed launch never is one.
  const adoption = adoptPrestartedServer(settings.prestarted, config.id, launch, {
    watchdog: settings.watchdog,
    probesEra: request.protocolEra === 'auto',
  });
  if (adoption.outcome === 'adopted') logger.debug('adopted the process started before the manager');
  if (adoption.outcome === 'discarded') {
    logger.info('did not adopt the process started for this server before the manager', {
      reason: discardReasons[adoption.reason],
    });
    // Ended at once; a lock file or port it holds is free once it has exited.
    await adoption.exited;
  }
  let first = true;
  const spawn = () => {
    const takeOver = first && adoption.outcome === 'adopted' ? adoption.process : undefined;
    first = false;
    const transport = new StdioProcessTransport({
      ...(takeOver ? { adopted: takeOver } : {}),
      command: launch.command,
      args: launch.args,
      env: launch.env,
      ...(launch.cwd !== undefined ? { cwd: launch.cwd } : {}),
      ...(settings.watchdog ? { watchdog: settings.watchdog } : {}),
      stderrTailLines: settings.stderrTailLines,
      closeGraceMs: settings.shutdownGraceMs,
      maxMessageSize: settings.maxMessageSize,
      redact: settings.redactor.redact,
      onStderrLine: (line) => logger.debug('stderr', { line }),
      onGarbageLine: (line) => logger.warn('ignored a stdout line that is not JSON-RPC', { line }),
      onBadResponse: (problem) => logger.warn('answered a request with an error: bad response', { problem }),
    });
    request.onProcess(transport);
    return transport;
  };
  let transport = spawn();
  let client: BackendPeer | undefined;
  try {
    let era: ProtocolEra;
    let connectTo: McpTransport = transport;
    let prior: PriorVerdict | undefined;
    if (request.protocolEra === 'auto') {
      // The probe spawns the server at once: the client's module loads while it starts.
      const probed = await probeStdio(transport, request, spawn);
      ({ era, transport, connectTo, prior } = probed);
    } else {
      // A pinned era is spawned by the client's connect, whose handlers hear an exit during start-up ("exited
      // during start-up (exit code 1)") rather than a process that ended before any client was attached.
      era = request.protocolEra;
    }
    await request.clientLoaded;
    client = request.createClient(era);
    // `prior` reaches the 2.x client only (its connect adopts the probe's discover result: no second round trip).
    const options: PeerConnectOptions = {
      timeout: request.timeoutMs,
      signal: request.signal,
      ...(prior ? { prior } : {}),
    };
    await client.connect(new ProgressOrderingTransport(connectTo), options);
    return { client, kind: 'stdio', process: transport };
  } catch (error) {
    // The process first and at once: a server that failed to start has no work to lose.
    await transport.close({ immediate: true }).catch(() => {});
    await client?.close().catch(() => {});
    throw error;
  }
}

interface ProbedStdio {
  era: ProtocolEra;
  /** The process to keep: the probed one, or a new one when the probed one ended. */
  transport: StdioProcessTransport;
  /** What the client connects to: the started process handed over, or the new one (not started yet). */
  connectTo: McpTransport;
  prior?: PriorVerdict;
}

/**
 * `auto` on a stdio server: the `server/discover` probe on its own process. 2026-07-28 offered: the 2.x client
 * connects with the probe's answer. Anything else: the 2025 handshake on the same process — or, when the process
 * ended on the probe, on a new one (one info line; the verdict is remembered, so reconnects skip the probe).
 */
async function probeStdio(
  transport: StdioProcessTransport,
  request: ConnectionRequest,
  spawn: () => StdioProcessTransport,
): Promise<ProbedStdio> {
  const { logger } = request;
  const outcome = await probeInPlace(transport, {
    clientInfo: request.clientInfo,
    timeoutMs: probeWaitMs(request.timeoutMs),
    signal: request.signal,
  });
  const choice = await chooseAutoEra(outcome, request);
  // The probed process goes on in the chosen era unless the probe ended it.
  if (outcome.era === 'modern' || outcome.reason !== 'closed') {
    return { ...choice, transport, connectTo: new StartedTransport(transport) };
  }
  // Ended by our own close (the server was stopped while it started): nothing to start again, and a process started
  // now would belong to no one.
  if (transport.closeRequested) throw new Error('the server was stopped while it started');
  logger.info(
    'the server ended on the 2026-07-28 probe (server/discover); starting it again in 2025 (its config entry\'s "protocol": "2025" skips the probe)',
  );
  await transport.close({ immediate: true });
  const restarted = spawn();
  return { era: 'legacy', transport: restarted, connectTo: restarted };
}

async function openRemote(request: ConnectionRequest, settings: ConnectionFactorySettings): Promise<OpenedConnection> {
  const { config } = request;
  if (config.transport === 'stdio') throw new Error('not a remote server');
  await request.clientLoaded;
  const remote = await connectRemote(config, {
    createClient: request.createClient,
    timeoutMs: request.timeoutMs,
    signal: request.signal,
    protocolEra: request.protocolEra,
    clientInfo: request.clientInfo,
    ...(request.onProbed ? { onProbed: request.onProbed } : {}),
    logger: request.logger,
    errors: request.errors,
    ...remoteFetch(request, settings),
    ...(request.originTracker ? { originTracker: request.originTracker } : {}),
  });
  return { client: remote.client, kind: remote.kind };
}

/** The fetch of a remote connection: the host's (or the global one), wrapped for OAuth when the server has it. */
function remoteFetch(request: ConnectionRequest, settings: ConnectionFactorySettings): { fetch?: McpFetchLike } {
  if (request.wrapFetch) return { fetch: request.wrapFetch(settings.fetch ?? ((url, init) => fetch(url, init))) };
  return settings.fetch ? { fetch: settings.fetch } : {};
}

import { randomUUID } from 'node:crypto';
import type { Caller } from '@search-mcp/catalog';
import { errorMessage, type ServerStatus } from '@search-mcp/shared';
import { stillStartingNote } from '../backend-instructions.js';
import { registerCompletionHandler } from '../completions/completion-handler.js';
import type { ForwardingHub } from '../forwarding-hub.js';
import type { PendingInputs } from '../input/pending-inputs.js';
import { registerSetLevelHandler } from '../logging/set-level-handler.js';
import type { ParamsCheckingServer } from '../params-checking-server.js';
import { registerPromptHandlers } from '../prompts/prompt-handlers.js';
import { registerResourceHandlers } from '../resources/resource-handlers.js';
import type { RequestExtra } from '../request-extra-types.js';
import type { ServerStatusSource } from '../search-mcp-server-options.js';
import type { ClientSession } from '../sessions/client-session.js';
import { expectedWithin, startingServerIds, waitForStartingServers } from '../starting-servers.js';
import { registerTaskHandlers } from '../tasks/task-handlers.js';
import type { ForwardingContext } from './forwarding-context.js';
import { clientEraOf } from '../eras/client-era-of.js';

/**
 * What Search MCP announces when it forwards everything. A stateless 2025 instance (HTTP stateless mode) has no stream
 * outside a request: no subscriptions, no log messages. In 2026-07-28 both travel on streams the serving entry
 * provides (`subscriptions/listen`; the request that asked for a log level), so a one-request instance has them too.
 */
export function forwardingCapabilities(stateless: boolean, era: 'legacy' | 'modern' = 'legacy') {
  const streamless = !clientEraOf(era).hasStreamOutsideRequests(stateless);
  return {
    tools: { listChanged: true },
    resources: streamless ? { listChanged: true } : { subscribe: true, listChanged: true },
    prompts: { listChanged: true },
    completions: {},
    ...(streamless ? {} : { logging: {} }),
    tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } },
  };
}

export interface ForwardingRegistration {
  hub: ForwardingHub;
  /** The calls held for a 2026-07-28 client's retry (prompts, reads, tasks' input), and our `requestState` codec. */
  inputs: PendingInputs;
  stateless: boolean;
  era: 'legacy' | 'modern';
  manager: ServerStatusSource | undefined;
  initialCaller: Caller;
  callerOf(meta: Record<string, unknown> | undefined, extra: RequestExtra): Caller;
  /** How `tools/list` is served: the note on servers still starting says where their tools will appear. */
  mode: 'meta' | 'proxy';
  /**
   * The longest `initialize` / `server/discover` waits for the caller's servers still starting, for their own notes;
   * servers whose last connect took longer are not waited for. 0 = never.
   */
  instructionsWaitMs: number;
  /**
   * Whether that wait also covers servers never connected in this process (nothing is known of how long they take).
   * Only when the wait was asked for: by default the handshake is answered at once for them (apps/stdio-server
   * README, "The first answer"), since a client waits for it before anything else.
   */
  waitsForNewServers: boolean;
  /** How long the session's first list waits for servers still connecting. */
  startupWaitMs: number;
  onInitialize?: ((server: ParamsCheckingServer) => void) | undefined;
}

/**
 * Makes this server a session of the hub: registered now, gone when it closes; handlers for resources, prompts,
 * completions, logging and tasks; the client's roots changes passed on; the backends' instructions added to
 * `initialize` (and 2026 `server/discover`), with the servers still starting named. Returns the session (the origin of this server's tool calls).
 */
export function registerForwarding(server: ParamsCheckingServer, options: ForwardingRegistration): ClientSession {
  const { hub } = options;
  let caller = options.initialCaller;
  const session: ClientSession = {
    key: randomUUID(),
    server,
    stateless: options.stateless,
    era: options.era,
    caller: () => caller,
    capabilities: () => server.getClientCapabilities(),
    connected: () => server.clientConnected,
    canSee: (serverId) => hub.canSee(serverId, caller),
  };
  let listedOnce = false;
  const context: ForwardingContext = {
    hub,
    session,
    inputs: options.inputs,
    callerOf: (meta, extra) => {
      caller = options.callerOf(meta, extra);
      return caller;
    },
    startupSettled: async (extra) => {
      if (listedOnce) return;
      listedOnce = true;
      if (options.manager) await waitForStartingServers(options.manager, options.startupWaitMs, extra.signal);
    },
  };
  hub.addSession(session);
  const previousOnClose = server.onclose;
  server.onclose = () => {
    hub.removeSession(session);
    previousOnClose?.();
  };

  registerResourceHandlers(server, context);
  registerPromptHandlers(server, context);
  registerCompletionHandler(server, context);
  if (!options.stateless) registerSetLevelHandler(server, context);
  registerTaskHandlers(server, context);

  server.setNotificationHandler('notifications/roots/list_changed', async () => {
    let visible: string[];
    try {
      visible = await hub.visibleServerIds(caller);
    } catch {
      return;
    }
    for (const serverId of visible) {
      hub.sessions.noteRootsOwner(serverId, session);
      hub.gateway.sendRootsListChanged(serverId).catch((error: unknown) => {
        hub.logger.debug('could not pass on a roots change', { server: serverId, error: errorMessage(error) });
      });
    }
  });

  server.transformHandshakeResult(async (result, extra) => {
    options.onInitialize?.(server);
    try {
      await hub.visibleServerIds(caller);
    } catch {
      // A refused caller learns that from its first real request; nothing is waited for on its behalf.
      return result;
    }
    const { manager, instructionsWaitMs } = options;
    // The caller's servers still starting get a short wait for their own notes, only those that can make it in time.
    if (manager && instructionsWaitMs > 0) {
      const expected = expectedWithin(instructionsWaitMs);
      const waitsFor = options.waitsForNewServers
        ? expected
        : (status: ServerStatus) => status.connectMs !== undefined && expected(status);
      await waitForStartingServers(manager, instructionsWaitMs, extra.signal, (status) =>
        session.canSee(status.id) ? waitsFor(status) : false,
      );
    }
    let running: string[] = [];
    try {
      running = await hub.visibleServerIds(caller);
    } catch {
      return result;
    }
    const starting = startingServerIds(manager).filter((serverId) => session.canSee(serverId));
    const notes = [hub.instructionsFor(running), stillStartingNote(starting, options.mode)]
      .filter(Boolean)
      .join('\n\n');
    if (notes === '') return result;
    const base = typeof result.instructions === 'string' ? result.instructions : '';
    return { ...result, instructions: base ? `${base}\n\n${notes}` : notes };
  });
  return session;
}

import type { ClusterStore } from '@search-mcp/cluster';
import { errorMessage, type Logger, type ResolvedConfig } from '@search-mcp/shared';

/**
 * An admin action that changes what clients see, told to every replica (docs/scale-out.md, "Admin actions on every
 * replica"). Each replica runs its own backends, so a restart, an enable or a disable is done by each on its own;
 * an approval pins the reviewed definitions in each one's catalog; a reload makes each read its config file again.
 */
export type ReplicaAction =
  | { kind: 'server'; action: 'restart' | 'enable' | 'disable'; serverId: string }
  | { kind: 'approve'; serverId: string; tool?: string; hashes: Record<string, string> }
  | { kind: 'reload' };

/** What an action is applied to: the runtime's client manager and catalog. */
export interface ReplicaActionTargets {
  manager: {
    restart(id: string): Promise<void>;
    start(id: string): Promise<void>;
    stop(id: string): Promise<void>;
    status(): ReadonlyArray<{ id: string }>;
  };
  catalog: {
    readonly config: ResolvedConfig;
    quarantined(): Promise<unknown>;
    approve(serverId: string, toolName?: string, options?: { expected?: Record<string, string> }): Promise<string[]>;
  };
}

export interface ReplicaFanOut {
  /** Whether other replicas hear this one (the runtime's cluster store is shared). */
  readonly shared: boolean;
  /** Tells the other replicas (never this one: it has done the action already). Failures are logged, never thrown. */
  publish(action: ReplicaAction): Promise<void>;
  /** What a reload message does here: hot reload registers its reloader (`startHotReload`). */
  onReload(handler: () => Promise<void>): () => void;
  /** Hears every action another replica's message made this one apply (or fail to), once it is done. */
  onApplied(listener: (action: ReplicaAction, error?: unknown) => void): () => void;
  /** Stops listening. */
  close(): void;
}

/** The channel under the store's prefix. */
const channel = 'admin-actions';

/**
 * Publishes this replica's admin actions and applies the other replicas' ones, one at a time in the order heard. A
 * replica skips its own messages. Without a shared store nothing is published or heard.
 */
export function createReplicaFanOut(
  store: ClusterStore | undefined,
  targets: ReplicaActionTargets,
  logger: Logger,
): ReplicaFanOut {
  const shared = store?.shared === true;
  const reloadHandlers = new Set<() => Promise<void>>();
  const appliedListeners = new Set<(action: ReplicaAction, error?: unknown) => void>();
  let queue: Promise<void> = Promise.resolve();

  const apply = async (action: ReplicaAction): Promise<void> => {
    if (action.kind === 'reload') {
      for (const handler of reloadHandlers) await handler();
      return;
    }
    const configured = targets.catalog.config.mcpServers;
    const server = Object.hasOwn(configured, action.serverId) ? configured[action.serverId] : undefined;
    // A server this replica's config does not run (yet: a reload still on its way) is not this replica's to touch.
    if (!server || server.enabled === false) return;
    if (action.kind === 'approve') {
      // Listing first, so what waits is known (as the REST route does).
      await targets.catalog.quarantined();
      await targets.catalog.approve(action.serverId, action.tool, action.hashes ? { expected: action.hashes } : {});
      return;
    }
    if (!targets.manager.status().some((status) => status.id === action.serverId)) return;
    if (action.action === 'restart') await targets.manager.restart(action.serverId);
    else if (action.action === 'enable') await targets.manager.start(action.serverId);
    else await targets.manager.stop(action.serverId);
  };

  const unsubscribe =
    shared && store
      ? store.subscribe(channel, (message) => {
          if (message.from === store.replicaId) return;
          const action = replicaAction(message.body);
          if (!action) {
            logger.warn('ignored a message of another replica that is no admin action', { from: message.from });
            return;
          }
          queue = queue.then(async () => {
            let failure: unknown;
            try {
              await apply(action);
              logger.info("applied another replica's admin action", { from: message.from, ...action });
            } catch (error) {
              failure = error;
              logger.warn("cannot apply another replica's admin action", {
                from: message.from,
                ...action,
                error: errorMessage(error),
              });
            }
            for (const listener of appliedListeners) listener(action, failure);
          });
        })
      : () => {};

  return {
    shared,
    async publish(action) {
      if (!shared || !store) return;
      try {
        await store.publish(channel, action);
      } catch (error) {
        logger.warn('cannot tell the other replicas of an admin action', { ...action, error: errorMessage(error) });
      }
    },
    onReload(handler) {
      reloadHandlers.add(handler);
      return () => reloadHandlers.delete(handler);
    },
    onApplied(listener) {
      appliedListeners.add(listener);
      return () => appliedListeners.delete(listener);
    },
    close: unsubscribe,
  };
}

/** The action a message carries, or undefined for anything else (another version, a stray publisher). */
function replicaAction(body: unknown): ReplicaAction | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const value = body as Record<string, unknown>;
  if (value.kind === 'reload') return { kind: 'reload' };
  if (typeof value.serverId !== 'string') return undefined;
  if (
    value.kind === 'server' &&
    (value.action === 'restart' || value.action === 'enable' || value.action === 'disable')
  ) {
    return { kind: 'server', action: value.action, serverId: value.serverId };
  }
  if (value.kind !== 'approve') return undefined;
  const hashes = value.hashes;
  const validHashes =
    typeof hashes === 'object' && hashes !== null && Object.values(hashes).every((hash) => typeof hash === 'string');
  // Without hashes (or with unreadable ones) it would approve whatever waits: what was reviewed is not known, so
  // nothing is. Search MCP's own publisher always sends them (apps/http-server quarantine routes).
  if (!validHashes) return undefined;
  return {
    kind: 'approve',
    serverId: value.serverId,
    ...(typeof value.tool === 'string' ? { tool: value.tool } : {}),
    hashes: hashes as Record<string, string>,
  };
}

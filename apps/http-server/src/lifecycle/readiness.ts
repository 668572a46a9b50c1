import type { ClusterStore } from '@search-mcp/cluster';

/** What `GET /readyz` answers: ready, or why not (docs/scale-out.md, "Probes and drain"). */
export type ReadinessState =
  | { ready: true }
  | { ready: false; reason: 'draining' | 'shutting-down' | 'cluster-store-down'; message: string };

/** How long a readiness probe waits for the cluster store's `ping` before it counts the store as down. */
const pingTimeoutMs = 2000;

/**
 * Whether this replica should get new traffic. It stops being ready the moment a shutdown begins (the load balancer
 * takes it out while it still answers, see `drainBeforeClose`) and while the state it shares with the other replicas
 * does not answer. It also remembers whether anything asked: a process no probe watches has nobody to drain for.
 */
export class Readiness {
  private phase: 'serving' | 'draining' | 'shutting-down' = 'serving';
  private asked = false;

  constructor(private readonly store: Pick<ClusterStore, 'ping'> | undefined) {}

  /** True once `GET /readyz` has been asked (a load balancer or orchestrator watches this replica). */
  get probed(): boolean {
    return this.asked;
  }

  get draining(): boolean {
    return this.phase === 'draining';
  }

  startDraining(): void {
    if (this.phase === 'serving') this.phase = 'draining';
  }

  startShuttingDown(): void {
    this.phase = 'shutting-down';
  }

  /** The probe's answer; counts as being probed. */
  async check(): Promise<ReadinessState> {
    this.asked = true;
    if (this.phase === 'draining') {
      return { ready: false, reason: 'draining', message: 'Shutting down: finishing the calls in flight' };
    }
    if (this.phase === 'shutting-down') {
      return { ready: false, reason: 'shutting-down', message: 'Search MCP is shutting down' };
    }
    if (this.store && !(await answersWithin(this.store, pingTimeoutMs))) {
      return { ready: false, reason: 'cluster-store-down', message: 'The cluster store (Redis) does not answer' };
    }
    return { ready: true };
  }
}

async function answersWithin(store: Pick<ClusterStore, 'ping'>, timeoutMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  try {
    return await Promise.race([store.ping().catch(() => false), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

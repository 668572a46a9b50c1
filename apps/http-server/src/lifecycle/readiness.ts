import type { ClusterStore } from '@search-mcp/cluster';
import { type Logger, settleWithin } from '@search-mcp/shared';

/** Whether the cluster store answered the probe's ping: reported, never a reason to be unready. */
export type ClusterStoreState = 'up' | 'down';

/** What `GET /readyz` answers: ready, or why not (docs/scale-out.md, "Probes and drain"). */
export type ReadinessState =
  | { ready: true; store?: ClusterStoreState }
  | { ready: false; reason: 'draining' | 'shutting-down'; message: string };

/** How long a readiness probe waits for the cluster store's `ping` before it reports the store as down. */
const pingTimeoutMs = 2000;

/**
 * Whether this replica should get new traffic. It stops being ready the moment a shutdown begins (the load balancer
 * takes it out while it still answers, see `drainBeforeClose`), and only then. A shared store that does not answer is
 * reported (`store: "down"`) and logged once per outage, but the replica stays ready: every replica shares the one
 * store, so going unready for it would take them all out together, while requests still work without it (rate limits
 * fail open, docs/scale-out.md). It also remembers whether anything asked: a process no probe watches has nobody to
 * drain for.
 */
export class Readiness {
  private phase: 'serving' | 'draining' | 'shutting-down' = 'serving';
  private asked = false;
  private storeDown = false;

  constructor(
    private readonly store: Pick<ClusterStore, 'ping' | 'description'> | undefined,
    private readonly logger?: Logger,
  ) {}

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
    if (!this.store) return { ready: true };
    const answers =
      (
        await settleWithin(
          this.store.ping().catch(() => false),
          pingTimeoutMs,
        )
      )?.value ?? false;
    this.noteStore(answers);
    return { ready: true, store: answers ? 'up' : 'down' };
  }

  /** One warning when an outage begins, one line when it ends (a probe every second must not flood the log). */
  private noteStore(answers: boolean): void {
    if (answers === !this.storeDown) return;
    this.storeDown = !answers;
    const store = this.store?.description;
    if (this.storeDown) {
      this.logger?.warn('the cluster store does not answer: this replica stays ready and works without it', { store });
    } else {
      this.logger?.info('the cluster store answers again', { store });
    }
  }
}

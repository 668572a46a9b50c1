import type { Logger } from '@search-mcp/shared';
import type { ActivityCounter } from './activity-counter.js';
import type { Readiness } from './readiness.js';

/**
 * The first step of a shutdown behind a load balancer (docs/scale-out.md, "Probes and drain"): `GET /readyz` turns
 * 503 at once while the app keeps serving every request for `drainMs`, long enough for the balancer's next health
 * checks to take this replica out, so that requests stop arriving before the listener closes. The close that follows
 * waits for the calls still in flight (`--shutdown-grace-ms`).
 *
 * A process no probe has asked (run by hand, or by a client as its stdio-less server) has no balancer to wait for:
 * it goes straight to the close, so Ctrl-C stays quick.
 */
export async function drainBeforeClose(options: {
  readiness: Readiness;
  activity: ActivityCounter;
  drainMs: number;
  logger: Logger;
}): Promise<void> {
  const { readiness, activity, drainMs, logger } = options;
  if (drainMs <= 0 || !readiness.probed) return;
  readiness.startDraining();
  logger.info('draining: /readyz answers 503 while requests are still served', { drainMs, calls: activity.active });
  await new Promise<void>((resolve) => setTimeout(resolve, drainMs));
}

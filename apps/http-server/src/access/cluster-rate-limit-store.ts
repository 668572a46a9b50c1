import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { ClusterStore } from '@search-mcp/cluster';
import { errorMessage, type Logger, settleWithin } from '@search-mcp/shared';

/** A limit check waits this long for the shared store at most; a request never waits for Redis longer. */
export const rateLimitStoreWaitMs = 500;
/** While the store keeps failing, one warning per this interval (not one per request). */
const warningIntervalMs = 60_000;

/**
 * `@fastify/rate-limit`'s store over `ClusterStore.increment`: each window is one shared counter, so the limit holds
 * across every replica that shares the store (with the in-process store, one app's counters, as before).
 *
 * When the store does not answer (Redis down, or slower than `rateLimitStoreWaitMs`) the check fails open: the
 * request goes through and a warning is logged (docs/scale-out.md). A Redis outage must not take the service down
 * with it; the limit is back as soon as Redis is.
 */
export function clusterRateLimitStore(store: ClusterStore, logger: Logger): FastifyRateLimitStoreCtor {
  let lastWarningAt = Number.NEGATIVE_INFINITY;
  let failuresSinceWarning = 0;
  const warn = (error: unknown) => {
    failuresSinceWarning += 1;
    const now = Date.now();
    if (now - lastWarningAt < warningIntervalMs) return;
    logger.warn('rate limits are not enforced while the cluster store does not answer: requests are let through', {
      store: store.description,
      error: errorMessage(error),
      failedChecks: failuresSinceWarning,
    });
    lastWarningAt = now;
    failuresSinceWarning = 0;
  };

  const limiter = (namespace: string): FastifyRateLimitStore => ({
    incr(key, callback, timeWindow) {
      const counted = store.increment(`rate-limit:${namespace}${key}`, 1, timeWindow);
      // A late answer or failure after the wait is over is of no use: only what came in time counts.
      const fail = (error: unknown) => {
        warn(error);
        // With `skipOnError`, the plugin lets the request through on this error (fail open).
        callback(error instanceof Error ? error : new Error(String(error)));
      };
      // Only a shared store can fail to answer: the in-process one's count needs no timer on every request.
      const answered = store.shared
        ? settleWithin(counted, rateLimitStoreWaitMs)
        : counted.then((value) => ({ value }));
      answered.then((settled) => {
        if (settled) callback(null, { current: settled.value.count, ttl: settled.value.ttlMs });
        else fail(new Error(`no answer within ${rateLimitStoreWaitMs} ms`));
      }, fail);
    },
    // A route with a limit of its own counts in its own windows. The plugin hands over its merged limit parameters,
    // the route under `routeInfo` (their own `method` and `url` are undefined): without it every such route would
    // share one counter.
    child: (params) => {
      const route = (params as { routeInfo?: { method?: unknown; url?: unknown } }).routeInfo ?? params;
      return limiter(`${String(route.method)}${String(route.url)}:`);
    },
  });

  return class ClusterRateLimitStore {
    constructor() {
      // biome-ignore lint/correctness/noConstructorReturn: the plugin constructs its store; this returns the limiter
      return limiter('');
    }
  } as unknown as FastifyRateLimitStoreCtor;
}

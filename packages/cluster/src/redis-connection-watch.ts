import type { Logger } from '@search-mcp/shared';
import type { Redis } from 'ioredis';

/**
 * Logs a connection's outages, one line when it is lost and one when it is back, never one per reconnect attempt
 * (ioredis retries forever with a capped backoff and reports each failed attempt as an `error` event, which would
 * flood the log while Redis is down). The `error` listener is also what keeps those events from crashing the process.
 */
export function watchRedisConnection(client: Redis, logger: Logger, connection: string): void {
  let lostAt: number | undefined;
  let lastError: string | undefined;
  let wasReady = false;
  client.on('error', (error: Error) => {
    lastError = error.message;
  });
  client.on('ready', () => {
    if (lostAt !== undefined) {
      logger.info('the cluster store reconnected to Redis', { connection, outageMs: Date.now() - lostAt });
    }
    lostAt = undefined;
    lastError = undefined;
    wasReady = true;
  });
  client.on('reconnecting', () => {
    if (!wasReady || lostAt !== undefined) return;
    lostAt = Date.now();
    logger.warn('the cluster store lost its Redis connection; reconnecting until it is back', {
      connection,
      ...(lastError ? { error: lastError } : {}),
    });
  });
}

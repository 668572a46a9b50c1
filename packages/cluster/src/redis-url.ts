import { ClusterStoreError } from './cluster-store-error.js';

export interface RedisAddress {
  /** The URL as given (with its password): what the client connects with. */
  url: string;
  /** `redis://host:port/db` without user or password: for logs, errors and `doctor`. */
  description: string;
}

/**
 * Checks `cluster.redis.url` before anything connects: only `redis://` and `rediss://` (TLS) URLs, e.g.
 * `redis://:password@redis.internal:6379/0` (packages/cluster/README.md, "The Redis store"). The description keeps
 * the database number and drops the credentials, which stay in the URL only.
 */
export function parseRedisUrl(url: string): RedisAddress {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ClusterStoreError({
      message: 'cluster.redis.url is not a URL: expected redis://[:password@]host[:port][/db] or rediss://…',
    });
  }
  if (parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:') {
    throw new ClusterStoreError({
      message: `cluster.redis.url must be a redis:// or rediss:// URL, not ${parsed.protocol}// (${parsed.host})`,
    });
  }
  if (parsed.hostname === '') {
    throw new ClusterStoreError({ message: 'cluster.redis.url names no host: expected redis://host[:port][/db]' });
  }
  const database = parsed.pathname.replace(/^\//, '') || '0';
  if (!/^\d+$/.test(database)) {
    throw new ClusterStoreError({
      message: `cluster.redis.url: the path must be a database number (e.g. /0), not /${database}`,
    });
  }
  return { url, description: `${parsed.protocol}//${parsed.hostname}:${parsed.port || '6379'}/${database}` };
}

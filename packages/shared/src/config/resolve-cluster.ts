/** The `cluster` section (docs/scale-out.md): the Redis that `search-mcp-http` replicas share. */
import { clusterSchema, configFileSchema } from './config-schema.js';
import type { ParseContext } from './parse-context.js';
import type { ClusterConfig } from './resolved-config.js';
import { warnUnknownKeys } from './unknown-keys.js';

export function resolveCluster(value: unknown, context: ParseContext): ClusterConfig | undefined {
  if (value === undefined) return undefined;
  warnUnknownKeys(value, Object.keys(clusterSchema.shape), ['cluster'], context);
  if (typeof value === 'object' && value !== null && 'redis' in value) {
    warnUnknownKeys(value.redis, Object.keys(clusterSchema.shape.redis.shape), ['cluster', 'redis'], context);
  }
  const cluster = context.validate(configFileSchema.shape.cluster, value, ['cluster']);
  if (cluster === undefined) return undefined;
  const path = ['cluster', 'redis', 'url'];
  const url = context.expand(cluster.redis.url, path);
  if (!url.complete) return undefined;
  // The URL may carry a password: the report names its scheme only.
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(url.value)?.[1]?.toLowerCase();
  if (scheme !== 'redis' && scheme !== 'rediss') {
    context.report(
      path,
      `expected a redis:// or rediss:// URL (e.g. redis://redis.internal:6379/0)${scheme ? `, not ${scheme}://` : ''}`,
    );
    return undefined;
  }
  return { redis: { url: url.value, ...(cluster.redis.keyPrefix ? { keyPrefix: cluster.redis.keyPrefix } : {}) } };
}

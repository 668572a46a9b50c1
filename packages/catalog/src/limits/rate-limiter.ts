import { RateLimitError, type RateConfig, type RateLimitsConfig } from '@search-mcp/shared';
import type { Caller } from '../catalog/catalog-types.js';
import { BucketMap } from './bucket-map.js';

export interface RateLimiterOptions {
  /** `security.rateLimits` of the config; absent: nothing is limited. */
  limits?: RateLimitsConfig | undefined;
  /** The clock, in milliseconds (tests pass their own). Default `performance.now()`. */
  now?: () => number;
  /** At most this many buckets are kept (keys come from callers). Default 10000. */
  maxBuckets?: number;
}

/** One bucket a call takes from: where it is kept, its rate, and how a refusal names it. */
interface Applicable {
  key: string;
  rate: RateConfig;
  /** The config path of the limit. */
  limit: string;
  /** What the limit counts, for the message ("token 'ci'"). */
  subject: string;
}

const defaultMaxBuckets = 10_000;

/**
 * `security.rateLimits` (docs/trust.md, "Rate limits"): token buckets per token id (an OAuth caller's `oauth:<sub>`
 * is its token; callers without one share the anonymous bucket), per project (calls without one share a bucket; a
 * project no server is listed for never gets here, since the catalog finds no tool for it before it asks),
 * per tool (`perTool`, or the tool's own rate in `tools["server:tool"]`) and per server (`tools["server:*"]`). A call
 * takes one token from each bucket that applies, or none: when any is empty the call is refused with a
 * `RateLimitError` saying when the emptiest has a token again. Nothing waits or holds other callers: a refusal is
 * immediate, and each call does a fixed amount of work.
 */
export class RateLimiter {
  private limits: RateLimitsConfig | undefined;
  private readonly now: () => number;
  private readonly buckets: BucketMap;

  constructor(options: RateLimiterOptions = {}) {
    this.limits = options.limits;
    this.now = options.now ?? (() => performance.now());
    // A call takes up to four buckets: fewer kept would evict a call's own.
    this.buckets = new BucketMap(Math.max(4, options.maxBuckets ?? defaultMaxBuckets));
  }

  /** Takes new limits (a config reload): buckets whose keys still apply keep their tokens, under the new rates. */
  reconfigure(limits: RateLimitsConfig | undefined): void {
    this.limits = limits;
    if (!limits) this.buckets.clear();
  }

  /** How many buckets are kept now. */
  get bucketCount(): number {
    return this.buckets.size;
  }

  /**
   * Takes a token from every bucket that applies to this call of `serverId`'s tool `toolName` (the server's own
   * name), or from none.
   * @throws RateLimitError with `retryAfterMs` and `limit` when a bucket is empty
   */
  take(caller: Caller, serverId: string, toolName: string): void {
    const limits = this.limits;
    if (!limits) return;
    const applicable = applicableLimits(limits, caller, serverId, toolName);
    if (applicable.length === 0) return;
    const now = this.now();
    let refusedBy: Applicable | undefined;
    let retryAfterMs = 0;
    // First only the kept buckets are read: one not kept would start full (a burst is at least 1), so it cannot
    // refuse, and a refused call must add no bucket (see BucketMap.find).
    for (const entry of applicable) {
      const bucket = this.buckets.find(entry.key, entry.rate);
      if (!bucket) continue;
      bucket.refill(entry.rate, now);
      const wait = bucket.waitMs(entry.rate);
      if (wait > retryAfterMs) {
        retryAfterMs = wait;
        refusedBy = entry;
      }
    }
    if (refusedBy) throw refusal(refusedBy, retryAfterMs);
    for (const entry of applicable) this.buckets.bucket(entry.key, entry.rate, now).take();
  }
}

function applicableLimits(limits: RateLimitsConfig, caller: Caller, serverId: string, toolName: string): Applicable[] {
  const applicable: Applicable[] = [];
  if (limits.perToken) {
    const tokenId = caller.tokenId;
    applicable.push({
      // NUL separates the kind from caller-given text, so no key of one kind can name another's.
      key: tokenId === undefined ? 'anonymous' : `token\u0000${tokenId}`,
      rate: limits.perToken,
      limit: 'security.rateLimits.perToken',
      subject: tokenId === undefined ? 'anonymous callers' : `token '${tokenId}'`,
    });
  }
  if (limits.perProject) {
    const projectId = caller.projectId;
    applicable.push({
      key: projectId === undefined ? 'no-project' : `project\u0000${projectId}`,
      rate: limits.perProject,
      limit: 'security.rateLimits.perProject',
      subject: projectId === undefined ? 'calls without a project' : `project '${projectId}'`,
    });
  }
  const toolKey = `${serverId}:${toolName}`;
  const ownRate = limits.tools[toolKey];
  const toolRate = ownRate ?? limits.perTool;
  if (toolRate) {
    applicable.push({
      key: `tool\u0000${toolKey}`,
      rate: toolRate,
      limit: ownRate ? `security.rateLimits.tools["${toolKey}"]` : 'security.rateLimits.perTool',
      subject: `tool '${toolKey}'`,
    });
  }
  const serverRate = limits.tools[`${serverId}:*`];
  if (serverRate) {
    applicable.push({
      key: `server\u0000${serverId}`,
      rate: serverRate,
      limit: `security.rateLimits.tools["${serverId}:*"]`,
      subject: `server '${serverId}'`,
    });
  }
  return applicable;
}

function refusal(entry: Applicable, retryAfterMs: number): RateLimitError {
  const { requestsPerMinute, burst } = entry.rate;
  const seconds = Math.max(0.1, Math.ceil(retryAfterMs / 100) / 10);
  return new RateLimitError({
    message: `Rate limit exceeded: ${entry.subject} may make ${requestsPerMinute} calls a minute (burst ${burst}, ${entry.limit}); retry in ${seconds} s`,
    retryAfterMs,
    limit: entry.limit,
  });
}

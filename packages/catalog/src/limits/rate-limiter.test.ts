import { RateLimitError, type RateLimitsConfig, ToolNotFoundError } from '@search-mcp/shared';
import { describe, expect, it } from 'vitest';
import { ToolCatalog } from '../catalog/tool-catalog.js';
import { ToolRegistry } from '../registry/tool-registry.js';
import { RateLimiter } from './rate-limiter.js';

/** A clock the test moves by hand: no sleeps. */
function clock() {
  let time = 1_000_000;
  return {
    now: () => time,
    advance: (milliseconds: number) => {
      time += milliseconds;
    },
  };
}

function limits(partial: Partial<RateLimitsConfig>): RateLimitsConfig {
  return { tools: {}, ...partial };
}

/** The refusal of one call, or undefined when it was let through. */
function refusal(take: () => void): RateLimitError | undefined {
  try {
    take();
    return undefined;
  } catch (error) {
    if (RateLimitError.isInstance(error)) return error;
    throw error;
  }
}

describe('RateLimiter', () => {
  it('lets a burst through, then refills at the rate', () => {
    const time = clock();
    const limiter = new RateLimiter({
      limits: limits({ perToken: { requestsPerMinute: 60, burst: 3 } }),
      now: time.now,
    });
    const call = () => limiter.take({ tokenId: 'ci' }, 'fs', 'read');
    for (let index = 0; index < 3; index += 1) expect(refusal(call)).toBeUndefined();
    const refused = refusal(call);
    expect(refused?.retryAfterMs).toBe(1000);
    expect(refused?.limit).toBe('security.rateLimits.perToken');
    expect(refused?.statusCode).toBe(429);
    expect(refused?.message).toBe(
      "Rate limit exceeded: token 'ci' may make 60 calls a minute (burst 3, security.rateLimits.perToken); retry in 1 s",
    );
    time.advance(400);
    expect(refusal(call)?.retryAfterMs).toBe(600);
    time.advance(600);
    expect(refusal(call)).toBeUndefined();
    expect(refusal(call)).toBeDefined();
    // A long idle time refills only up to the burst.
    time.advance(3_600_000);
    for (let index = 0; index < 3; index += 1) expect(refusal(call)).toBeUndefined();
    expect(refusal(call)).toBeDefined();
  });

  it('takes from every bucket or from none', () => {
    const time = clock();
    const limiter = new RateLimiter({
      limits: limits({ perToken: { requestsPerMinute: 1, burst: 1 }, perTool: { requestsPerMinute: 1, burst: 2 } }),
      now: time.now,
    });
    expect(refusal(() => limiter.take({ tokenId: 'a' }, 'fs', 'read'))).toBeUndefined();
    // Refused by a's own bucket: the tool's bucket keeps its last token …
    expect(refusal(() => limiter.take({ tokenId: 'a' }, 'fs', 'read'))?.limit).toBe('security.rateLimits.perToken');
    // … which b gets; then the tool's bucket is empty for c.
    expect(refusal(() => limiter.take({ tokenId: 'b' }, 'fs', 'read'))).toBeUndefined();
    expect(refusal(() => limiter.take({ tokenId: 'c' }, 'fs', 'read'))?.limit).toBe('security.rateLimits.perTool');
    // Another tool has a bucket of its own.
    expect(refusal(() => limiter.take({ tokenId: 'c' }, 'fs', 'write'))).toBeUndefined();
  });

  it('names the bucket that takes longest to have a token again', () => {
    const time = clock();
    const limiter = new RateLimiter({
      limits: limits({ perToken: { requestsPerMinute: 60, burst: 1 }, perProject: { requestsPerMinute: 6, burst: 1 } }),
      now: time.now,
    });
    const call = () => limiter.take({ tokenId: 'a', projectId: 'web' }, 'fs', 'read');
    expect(refusal(call)).toBeUndefined();
    const refused = refusal(call);
    expect(refused?.limit).toBe('security.rateLimits.perProject');
    expect(refused?.retryAfterMs).toBe(10_000);
    expect(refused?.message).toContain("project 'web' may make 6 calls a minute");
  });

  it('shares one bucket among anonymous callers and counts an OAuth subject as its token', () => {
    const time = clock();
    const limiter = new RateLimiter({
      limits: limits({ perToken: { requestsPerMinute: 1, burst: 1 } }),
      now: time.now,
    });
    expect(refusal(() => limiter.take({}, 'fs', 'read'))).toBeUndefined();
    expect(refusal(() => limiter.take({ projectId: 'other' }, 'fs', 'read'))?.message).toContain('anonymous callers');
    expect(refusal(() => limiter.take({ tokenId: 'oauth:alice' }, 'fs', 'read'))).toBeUndefined();
    expect(refusal(() => limiter.take({ tokenId: 'oauth:alice' }, 'fs', 'read'))?.message).toContain(
      "token 'oauth:alice'",
    );
    // A token named "anonymous" is not the anonymous callers.
    expect(refusal(() => limiter.take({ tokenId: 'anonymous' }, 'fs', 'read'))).toBeUndefined();
  });

  it("applies a tool's own rate instead of perTool, and a server's rate to all its tools together", () => {
    const time = clock();
    const limiter = new RateLimiter({
      limits: limits({
        perTool: { requestsPerMinute: 100, burst: 100 },
        tools: { 'fs:write': { requestsPerMinute: 1, burst: 1 }, 'web:*': { requestsPerMinute: 1, burst: 2 } },
      }),
      now: time.now,
    });
    expect(refusal(() => limiter.take({}, 'fs', 'write'))).toBeUndefined();
    expect(refusal(() => limiter.take({}, 'fs', 'write'))?.limit).toBe('security.rateLimits.tools["fs:write"]');
    expect(refusal(() => limiter.take({}, 'fs', 'read'))).toBeUndefined();
    expect(refusal(() => limiter.take({}, 'web', 'search'))).toBeUndefined();
    expect(refusal(() => limiter.take({}, 'web', 'fetch'))).toBeUndefined();
    expect(refusal(() => limiter.take({}, 'web', 'search'))?.limit).toBe('security.rateLimits.tools["web:*"]');
  });

  it('keeps at most maxBuckets, dropping a full idle bucket before a drained one', () => {
    const time = clock();
    const limiter = new RateLimiter({
      limits: limits({ perToken: { requestsPerMinute: 1, burst: 2 } }),
      now: time.now,
      maxBuckets: 4,
    });
    const call = (tokenId: string) => refusal(() => limiter.take({ tokenId }, 'fs', 'read'));
    expect(call('hot')).toBeUndefined();
    expect(call('hot')).toBeUndefined();
    for (const tokenId of ['a', 'b', 'c']) expect(call(tokenId)).toBeUndefined();
    // A minute later a, b and c are full again; hot (the least recently used) has one token.
    time.advance(60_000);
    expect(call('d')).toBeUndefined();
    expect(limiter.bucketCount).toBe(4);
    // Plain LRU would have dropped hot, which would then start full with two tokens.
    expect(call('hot')).toBeUndefined();
    expect(call('hot')).toBeDefined();
    for (let index = 0; index < 1000; index += 1) call(`caller-${index}`);
    expect(limiter.bucketCount).toBe(4);
  });

  it('adds no bucket for a refused call, so keys it names cannot push out drained buckets', () => {
    const time = clock();
    const limiter = new RateLimiter({
      limits: limits({
        perToken: { requestsPerMinute: 1, burst: 1 },
        perProject: { requestsPerMinute: 1, burst: 1000 },
      }),
      now: time.now,
      maxBuckets: 23,
    });
    const take = (tokenId: string, projectId?: string) =>
      refusal(() => limiter.take(projectId === undefined ? { tokenId } : { tokenId, projectId }, 'fs', 'read'));
    // More drained buckets than eviction looks at (16) before it drops the oldest: 20 tokens, each drained.
    for (let index = 0; index < 20; index += 1) expect(take(`victim-${index}`)).toBeUndefined();
    expect(take('sprayer', 'first')).toBeUndefined();
    // 20 tokens, the sprayer's, and the two projects (none, 'first').
    expect(limiter.bucketCount).toBe(23);
    // The sprayer's token is drained: each call is refused, whatever project it names, and adds no bucket.
    for (let index = 0; index < 100; index += 1) {
      expect(take('sprayer', `made-up-${index}`)?.limit).toBe('security.rateLimits.perToken');
    }
    expect(limiter.bucketCount).toBe(23);
    // Every victim's drained bucket is still kept: none starts over full.
    for (let index = 0; index < 20; index += 1) expect(take(`victim-${index}`)).toBeDefined();
    time.advance(60_000);
    expect(take('victim-0')).toBeUndefined();
  });

  it('applies reloaded rates to the tokens a bucket holds, and nothing without limits', () => {
    const time = clock();
    const limiter = new RateLimiter({
      limits: limits({ perToken: { requestsPerMinute: 60, burst: 2 } }),
      now: time.now,
    });
    const call = () => refusal(() => limiter.take({ tokenId: 'ci' }, 'fs', 'read'));
    expect(call()).toBeUndefined();
    expect(call()).toBeUndefined();
    limiter.reconfigure(limits({ perToken: { requestsPerMinute: 600, burst: 5 } }));
    // The bucket is still empty (its state is kept), and refills at the new rate.
    expect(call()?.retryAfterMs).toBe(100);
    time.advance(100);
    expect(call()).toBeUndefined();
    limiter.reconfigure(undefined);
    expect(limiter.bucketCount).toBe(0);
    for (let index = 0; index < 100; index += 1) expect(call()).toBeUndefined();
  });
});

describe('ToolCatalog with security.rateLimits', () => {
  it('refuses calls over the limit before they run, and follows a reload', async () => {
    const time = clock();
    const registry = new ToolRegistry();
    let runs = 0;
    registry.register({ name: 'echo', description: 'Echo a message back' }, () => {
      runs += 1;
      return 'echo';
    });
    const config = (requestsPerMinute: number) => ({
      mcpServers: {},
      security: { rateLimits: { tools: { 'local:echo': { requestsPerMinute, burst: 1 } } } },
    });
    const catalog = new ToolCatalog({ sources: [registry], config: config(60), rateLimiter: { now: time.now } });
    await catalog.execute('local:echo', {});
    const refused = await catalog.execute('local:echo', {}).catch((error: unknown) => error);
    expect(RateLimitError.isInstance(refused)).toBe(true);
    expect((refused as RateLimitError).retryAfterMs).toBe(1000);
    expect(runs).toBe(1);
    catalog.reconfigure(config(600));
    time.advance(100);
    await catalog.execute('local:echo', {});
    expect(runs).toBe(2);
  });

  it('never gives a project no server is listed for a bucket: its calls find no tool', async () => {
    const time = clock();
    const web = new ToolRegistry({ serverId: 'webtools', projects: ['web'] });
    let runs = 0;
    web.register({ name: 'deploy', description: 'Deploy the web site' }, () => {
      runs += 1;
      return 'deployed';
    });
    const catalog = new ToolCatalog({
      sources: [web],
      config: { mcpServers: {}, security: { rateLimits: { tools: {}, perProject: { requestsPerMinute: 1 } } } },
      rateLimiter: { now: time.now },
    });
    await catalog.execute('webtools:deploy', {}, { projectId: 'web' });
    const again = await catalog.execute('webtools:deploy', {}, { projectId: 'web' }).catch((error: unknown) => error);
    expect(RateLimitError.isInstance(again)).toBe(true);
    // Made-up projects see no server, so no fresh bucket lets them through.
    for (const projectId of ['made-up', 'other', 'web2']) {
      await expect(catalog.execute('webtools:deploy', {}, { projectId })).rejects.toThrow(ToolNotFoundError);
    }
    expect(runs).toBe(1);
  });
});

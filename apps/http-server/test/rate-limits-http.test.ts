/**
 * `security.rateLimits` (docs/trust.md, "Rate limits") over a real app with server-everything: one token floods the
 * REST call route and gets 429s with `Retry-After` while another token's calls go through; over MCP the refusal is a
 * JSON-RPC error with the retry time, for `tool_execute` and for a direct `tools/call`.
 */
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mainToken, mcpClient, request, type Running, startApp } from './http-test-support.js';

const floodToken = 'flood-token-0123456789-abcdefghijklmnop';
const mcpToken = 'mcp-token-0123456789-abcdefghijklmnopq';
const burst = 5;
const floodSize = 60;

/** The first failure of `call` within `burst` more calls (a call that still succeeds is one the bucket refilled). */
async function firstRefusal(call: () => Promise<unknown>): Promise<unknown> {
  for (let attempt = 0; attempt < burst; attempt += 1) {
    const failure = await call().then(
      () => undefined,
      (error: unknown) => error,
    );
    if (failure !== undefined) return failure;
  }
  return new Error(`no refusal within ${burst} calls over the burst`);
}

let server: Running;

beforeAll(async () => {
  server = await startApp({
    config: {
      auth: {
        tokens: [
          { id: 'main', token: mainToken },
          { id: 'flood', token: floodToken },
          { id: 'mcp', token: mcpToken },
        ],
      },
      // One call a second on average, five at once: a flood of 60 is mostly refused whatever the machine's speed.
      security: { rateLimits: { perToken: { requestsPerMinute: 60, burst } } },
    },
  });
});

afterAll(async () => {
  await server.close();
});

function echo(token: string, message: string) {
  return request(server.url, '/v1/tools/call', {
    token,
    body: { name: 'everything:echo', parameters: { message } },
  });
}

describe('security.rateLimits', () => {
  it('answers a flooding token 429 with Retry-After while another token is served', async () => {
    const flood = Array.from({ length: floodSize }, (_, index) => echo(floodToken, `flood ${index}`));
    // The other token's calls run while the flood is in flight.
    const otherLatencies: number[] = [];
    const other = (async () => {
      const statuses: number[] = [];
      for (let index = 0; index < burst; index += 1) {
        const started = performance.now();
        const response = await echo(mainToken, `other ${index}`);
        otherLatencies.push(performance.now() - started);
        statuses.push(response.status);
      }
      return statuses;
    })();
    const [floodResponses, otherStatuses] = await Promise.all([Promise.all(flood), other]);

    expect(otherStatuses).toEqual(Array.from({ length: burst }, () => 200));
    const served = floodResponses.filter((response) => response.status === 200);
    const refused = floodResponses.filter((response) => response.status === 429);
    expect(served.length + refused.length).toBe(floodSize);
    // The burst, plus at most what refilled while the flood ran.
    expect(served.length).toBeGreaterThanOrEqual(burst);
    expect(refused.length).toBeGreaterThan(floodSize / 2);
    for (const response of refused) {
      const retryAfter = Number(response.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(response.body).toMatchObject({
        success: false,
        code: 'RATE_LIMIT_EXCEEDED',
        limit: 'security.rateLimits.perToken',
      });
      expect(response.body?.retryAfterMs).toBeGreaterThan(0);
      expect(retryAfter).toBe(Math.ceil(response.body?.retryAfterMs / 1000));
      expect(response.body?.error).toContain("token 'flood' may make 60 calls a minute");
    }
    // The figures for the report (docs/trust.md, "Rate limits"); nothing is asserted about timings.
    process.stderr.write(
      `rate-limits flood: ${served.length} served, ${refused.length} refused of ${floodSize}; ` +
        `other token: ${otherStatuses.length} served, latencies ${otherLatencies.map((ms) => ms.toFixed(1)).join(', ')} ms\n`,
    );
  });

  it('refuses an MCP call with a JSON-RPC error carrying the retry time', async () => {
    const { client } = await mcpClient(server.url, { authorization: `Bearer ${mcpToken}` });
    try {
      for (let index = 0; index < burst; index += 1) {
        const result = await client.callTool({
          name: 'tool_execute',
          arguments: { toolKey: 'everything:echo', arguments: { message: `call ${index}` } },
        });
        expect(result.isError).not.toBe(true);
      }
      // The bucket refills one call a second: a burst that took longer than that on a loaded machine leaves a call or
      // two over. The first refusal is what is checked, within a few calls more.
      const viaMetaTool = await firstRefusal(() =>
        client.callTool({
          name: 'tool_execute',
          arguments: { toolKey: 'everything:echo', arguments: { message: 'over' } },
        }),
      );
      expect(viaMetaTool).toBeInstanceOf(McpError);
      expect((viaMetaTool as McpError).code).toBe(-32000);
      expect((viaMetaTool as McpError).message).toContain("token 'mcp' may make 60 calls a minute");
      expect((viaMetaTool as McpError).data).toMatchObject({ limit: 'security.rateLimits.perToken' });
      expect(((viaMetaTool as McpError).data as { retryAfterMs: number }).retryAfterMs).toBeGreaterThan(0);

      const direct = await firstRefusal(() =>
        client.callTool({ name: 'everything__echo', arguments: { message: 'over' } }),
      );
      expect(direct).toBeInstanceOf(McpError);
      expect((direct as McpError).code).toBe(-32000);
      expect((direct as McpError).data).toMatchObject({ limit: 'security.rateLimits.perToken' });
      expect(((direct as McpError).data as { retryAfterMs: number }).retryAfterMs).toBeGreaterThan(0);
    } finally {
      await client.close();
    }
  });
});

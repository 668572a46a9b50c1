import { describe, expect, it } from 'vitest';
import { call, connect, Loose } from '../../test/search-mcp-test-server.js';

/** A JSON-RPC error as the test client throws it (the fields read here). */
interface McpError {
  code: number;
  message: string;
  data?: unknown;
}

describe('direct tools/call (both modes)', () => {
  it.each(['meta', 'proxy'] as const)('accepts every key form in %s mode', async (mode) => {
    const { client } = await connect({ mode });
    for (const name of ['local:echo', 'local.echo', 'local__echo']) {
      expect(await call(client, name, { message: name })).toEqual({
        content: [{ type: 'text', text: `Echo: ${name}` }],
      });
    }
  });

  it('maps failures to the JSON-RPC errors of the contract', async () => {
    const { client } = await connect();
    const errorOf = async (name: string, args: Record<string, unknown> = {}) =>
      (await call(client, name, args).catch((error: unknown) => error)) as McpError;
    const unknown = await errorOf('nope:tool');
    expect([unknown.code, unknown.message]).toEqual([-32602, 'Tool not found: nope:tool']);
    const notRunning = await errorOf('fs:read_file', { path: '/x' });
    expect([notRunning.code, notRunning.message]).toEqual([-32000, "MCP server 'fs' is not running"]);
    const timeout = await errorOf('local:hang');
    expect(timeout.code).toBe(-32001);
    const invalid = await errorOf('local:echo', { message: 1 });
    expect(invalid.code).toBe(-32602);
    expect(invalid.data).toEqual({ issues: [{ path: 'arguments.message', message: 'must be string' }] });
    const malformed = (await client
      .request({ method: 'tools/call', params: { name: 42 } } as never, Loose)
      .catch((error: unknown) => error)) as McpError;
    expect([malformed.code, malformed.message]).toEqual([
      -32602,
      'Invalid tools/call params: "name" must be a non-empty string',
    ]);
  });
});

describe('refused callers', () => {
  const tokens = { auth: { tokens: [{ id: 'ci', token: 'ci-secret', projects: ['web'] }] } };
  const asCi = {
    resolveCaller: ({ meta }: { meta: Record<string, unknown> | undefined }) => ({
      tokenId: 'ci',
      ...(typeof meta?.projectId === 'string' ? { projectId: meta.projectId } : {}),
    }),
  };

  it.each(['meta', 'proxy'] as const)(
    'answers tools/list with the error of a refused caller, not -32603 (%s mode)',
    async (mode) => {
      const { client } = await connect({ mode, ...asCi }, tokens);
      const forbidden = (await client
        .request({ method: 'tools/list', params: { _meta: { projectId: 'other' } } }, Loose)
        .catch((error: unknown) => error)) as McpError;
      expect([forbidden.code, forbidden.message]).toEqual([
        -32000,
        "Token 'ci' may not be used for project 'other'; it is limited to: web",
      ]);
      const tooLong = (await client
        .request({ method: 'tools/list', params: { _meta: { projectId: 'web'.repeat(100) } } }, Loose)
        .catch((error: unknown) => error)) as McpError;
      expect([tooLong.code, tooLong.message]).toEqual([-32602, 'Invalid projectId: must be at most 256 characters']);
      expect(tooLong.data).toEqual({ issues: [{ path: 'projectId', message: 'must be at most 256 characters' }] });
      expect(
        (await client.request({ method: 'tools/list', params: { _meta: { projectId: 'web' } } }, Loose)).tools,
      ).toBeDefined();
    },
  );

  it('answers a direct tools/call of a refused caller with its error, not -32603', async () => {
    const { client } = await connect({ ...asCi }, tokens);
    const refused = (await client
      .request(
        {
          method: 'tools/call',
          params: { name: 'local:echo', arguments: { message: 'x' }, _meta: { projectId: 'other' } },
        },
        Loose,
      )
      .catch((error: unknown) => error)) as McpError;
    expect(refused.code).toBe(-32000);
    expect(refused.message).toContain("Token 'ci' may not be used for project 'other'");
  });
});

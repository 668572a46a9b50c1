/**
 * `GET /v1/stats` (docs/console.md, "Usage statistics") over one real app: server-everything and the fixture server
 * behind it, an audit file, calls over REST and MCP, a project-limited token.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  alphaToken,
  eventually,
  mcpClient,
  request,
  type Running,
  startApp,
  temporaryDirectory,
} from './http-test-support.js';

let server: Running;
let directory: Awaited<ReturnType<typeof temporaryDirectory>>;

beforeAll(async () => {
  directory = await temporaryDirectory();
  server = await startApp({ auditFile: `${directory.path}/audit.jsonl` });
});

afterAll(async () => {
  await server?.close();
  await directory?.remove();
});

interface ToolRow {
  toolKey: string;
  serverId: string;
  calls: number;
  errors: number;
  lastCallAt?: string;
}

async function stats(query: string, token?: string, project?: string) {
  return request(server.url, `/v1/stats${query}`, {
    ...(token ? { token } : {}),
    ...(project ? { headers: { 'x-project-id': project } } : {}),
  });
}

describe('GET /v1/stats', () => {
  it('shows the calls made over REST and MCP, not tool reads, with searches, per the caller', async () => {
    for (const message of ['one', 'two']) {
      const called = await request(server.url, '/v1/tools/call', {
        body: { name: 'everything:echo', parameters: { message } },
      });
      expect(called.status).toBe(200);
    }
    expect((await request(server.url, '/v1/tools/everything:echo')).status).toBe(200);
    expect((await request(server.url, '/v1/tools/search', { body: { query: 'echo a message' } })).status).toBe(200);
    const { client } = await mcpClient(server.url);
    await client.callTool({
      name: 'tool_execute',
      arguments: { toolKey: 'everything:echo', arguments: { message: 'x' } },
    });
    await client.close();
    const alphaCall = await request(server.url, '/v1/tools/call', {
      token: alphaToken,
      headers: { 'x-project-id': 'alpha' },
      body: { name: 'alpha:alpha-report', parameters: {} },
    });
    expect(alphaCall.status).toBe(200);

    // A REST call is counted when its audit line is written, as its response goes out: waited for, not assumed.
    const report = await eventually(async () => {
      const response = await stats('?window=1h');
      const echo = (response.body?.tools as ToolRow[] | undefined)?.find((tool) => tool.toolKey === 'everything:echo');
      return echo?.calls === 3 && response.body?.searches.count >= 1 ? response.body : undefined;
    });
    expect(report).toMatchObject({ window: '1h', bucketMs: 60_000, persisted: true });
    expect(report.series).toHaveLength(60);
    const tools = report.tools as ToolRow[];
    expect(tools.find((tool) => tool.toolKey === 'everything:echo')).toMatchObject({
      serverId: 'everything',
      errors: 0,
    });
    expect(typeof tools.find((tool) => tool.toolKey === 'everything:echo')?.lastCallAt).toBe('string');
    // Project alpha's tool is not the main token's to see without naming the project.
    expect(tools.map((tool) => tool.toolKey)).not.toContain('alpha:alpha-report');
    expect(report.totals.calls).toBe(3);
    expect(report.series.reduce((sum: number, bucket: { calls: number }) => sum + bucket.calls, 0)).toBe(3);
    expect(report.servers).toEqual([expect.objectContaining({ serverId: 'everything', calls: 3 })]);

    const filtered = await stats('?window=24h&toolKey=everything:echo');
    expect(filtered.body).toMatchObject({ window: '24h', bucketMs: 3_600_000, totals: { calls: 3 } });
    expect(filtered.body?.series).toHaveLength(24);
    expect((await stats('?window=7d&serverId=fixture')).body?.totals.calls).toBe(0);
  });

  it('shows a project-limited token only the tools of its project', async () => {
    const report = await eventually(async () => {
      const response = await stats('?window=7d', alphaToken, 'alpha');
      return response.body?.totals?.calls === 1 ? response : undefined;
    });
    expect(report.status).toBe(200);
    expect(((report.body?.tools ?? []) as ToolRow[]).map((tool) => tool.toolKey)).toEqual(['alpha:alpha-report']);
    // Without naming its project, the token is refused, as on every REST route.
    expect((await stats('?window=7d', alphaToken)).status).toBe(403);
  });

  it('answers a bad window with 400 and says what is allowed', async () => {
    const response = await stats('?window=2d');
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ success: false, code: 'VALIDATION_ERROR' });
    expect(response.body?.error).toContain('1h, 24h, 7d');
  });

  it('is in the OpenAPI document', async () => {
    const document = (await request(server.url, '/v1/openapi.json', { token: null })).body ?? {};
    const operation = document.paths['/v1/stats'].get;
    expect(operation.parameters.map((parameter: { name: string }) => parameter.name)).toEqual(
      expect.arrayContaining(['window', 'serverId', 'toolKey']),
    );
    expect(JSON.stringify(operation.responses['200'])).toContain('UsageReport');
  });
});

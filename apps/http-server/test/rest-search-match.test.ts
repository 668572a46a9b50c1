/**
 * `POST /v1/tools/search` says whether anything fits (`match`, `notice`), as `tool_discovery` does over MCP, and the
 * OpenAPI document describes both fields. One real app over server-everything and the fixture server.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request, type Running, startApp } from './http-test-support.js';

let server: Running;

beforeAll(async () => {
  server = await startApp();
});

afterAll(async () => {
  await server.close();
});

async function search(body: Record<string, unknown>) {
  const response = await request(server.url, '/v1/tools/search', { body });
  expect(response.status).toBe(200);
  return response.body ?? {};
}

describe('POST /v1/tools/search: match and notice', () => {
  it('calls a well-covered request a good match, without a notice', async () => {
    const body = await search({ query: 'echo back the input string' });
    expect(body.match).toBe('good');
    expect(body).not.toHaveProperty('notice');
    expect(body.results[0]).toMatchObject({ toolKey: 'everything:echo', relevance: 1 });
  });

  it('says no tool fits a request nothing covers, names the closest, and keeps the best hit below 1', async () => {
    const body = await search({ query: 'send an email to the sales team' });
    expect(['weak', 'none']).toContain(body.match);
    expect(body.notice).toMatch(/^no tool matches 'send an email to the sales team'/);
    const hits = body.results as Array<{ toolKey: string; relevance: number }>;
    // The closest tools are still returned and named in the notice, none of them scored as a fit.
    expect(hits.length).toBeGreaterThan(0);
    expect(hits[0]?.relevance).toBeLessThan(1);
    expect(body.notice).toContain(hits[0]?.toolKey);
  });

  it('answers none with advice when the filter leaves nothing to rank', async () => {
    const body = await search({ query: 'echo', filters: { server: 'no-such-server' } });
    expect([body.match, body.total]).toEqual(['none', 0]);
    expect(typeof body.notice).toBe('string');
    expect(body.notice.length).toBeGreaterThan(0);
  });

  it('quotes each phrasing of a multi-query request in the notice', async () => {
    const body = await search({ query: ['bake sourdough bread', 'knead the dough'] });
    expect(body.match).not.toBe('good');
    expect(body.notice).toContain("'bake sourdough bread' / 'knead the dough'");
  });

  it('documents match and notice in the OpenAPI response schema', async () => {
    const document = (await request(server.url, '/v1/openapi.json', { token: null })).body ?? {};
    const schema = document.paths['/v1/tools/search'].post.responses['200'].content['application/json'].schema;
    expect(schema.properties.match).toMatchObject({ enum: ['good', 'weak', 'none'] });
    expect(schema.properties.notice).toMatchObject({ type: 'string' });
    expect(schema.required).toEqual(expect.arrayContaining(['query', 'results', 'total', 'match']));
    expect(schema.required).not.toContain('notice');
  });
});

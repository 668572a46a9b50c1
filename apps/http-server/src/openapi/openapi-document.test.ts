import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request, type Running, startApp } from '../../test/http-test-support.js';
import { restLimits } from '../rest-limits.js';

describe('GET /v1/openapi.json', () => {
  let server: Running;
  // biome-ignore lint/suspicious/noExplicitAny: the document is read as JSON
  let document: Record<string, any>;

  beforeAll(async () => {
    server = await startApp({ backends: 'none' });
    document = (await request(server.url, '/v1/openapi.json', { token: null })).body ?? {};
  });

  afterAll(async () => {
    await server.close();
  });

  it('is OpenAPI 3.1 with every route, and no hidden one', () => {
    expect(document.openapi).toBe('3.1.0');
    expect(document.info.version).toBe('test');
    expect(Object.keys(document.paths).sort()).toEqual(
      [
        '/',
        '/catalog/search',
        '/healthz',
        '/readyz',
        '/mcp',
        '/oauth/callback',
        '/ui/session',
        '/ui/settings.json',
        '/v1/activity',
        '/v1/activity/stream',
        '/v1/config',
        '/v1/events',
        '/v1/quarantine',
        '/v1/servers',
        '/v1/servers/{serverId}',
        '/v1/servers/{serverId}/authorize',
        '/v1/servers/{serverId}/approve',
        '/v1/servers/{serverId}/disable',
        '/v1/servers/{serverId}/enable',
        '/v1/servers/{serverId}/restart',
        '/v1/stats',
        '/v1/tools',
        '/v1/tools/call',
        '/v1/tools/search',
        '/v1/tools/{toolKey}',
      ].sort(),
    );
    expect(document.components.securitySchemes.bearer).toEqual({ type: 'http', scheme: 'bearer' });
    expect(document.paths['/'].get.security).toEqual([]);
    expect(document.paths['/healthz'].get.security).toEqual([]);
    expect(document.paths['/readyz'].get.security).toEqual([]);
    expect(Object.keys(document.paths['/readyz'].get.responses)).toEqual(['200', '503']);
  });

  it('says what the validation enforces: limits, required fields, path parameters', () => {
    const list = document.paths['/v1/tools'].get.parameters as Array<{ name: string; in: string; schema: unknown }>;
    expect(list.find((parameter) => parameter.name === 'limit')?.schema).toMatchObject({
      maximum: restLimits.listPageMax,
      default: restLimits.listPageDefault,
    });
    expect(list.find((parameter) => parameter.name === 'x-project-id')?.in).toBe('header');
    const search = document.paths['/v1/tools/search'].post.requestBody.content['application/json'].schema;
    expect(search.properties.limit).toMatchObject({ maximum: restLimits.maxResults });
    expect(search.required).toEqual(['query']);
    const detail = document.paths['/v1/tools/{toolKey}'].get.parameters as Array<{ name: string; in: string }>;
    expect(detail).toContainEqual(expect.objectContaining({ name: 'toolKey', in: 'path' }));
    const call = document.paths['/v1/tools/call'].post;
    expect(call.requestBody.content['application/json'].schema.required).toEqual(['name']);
    expect(Object.keys(call.responses)).toEqual(
      expect.arrayContaining(['200', '400', '401', '403', '404', '408', '502', '503']),
    );
  });

  it("documents /catalog/search with the catalog's cloud search schemas", () => {
    const operation = document.paths['/catalog/search'].post;
    expect(operation.requestBody.content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/CloudSearchRequestInput',
    });
    const requestSchema = document.components.schemas.CloudSearchRequestInput;
    expect(requestSchema.required).toEqual(['query', 'tools']);
    expect(requestSchema.properties.maxResults).toMatchObject({ maximum: restLimits.maxResults });
    expect(operation.responses['200'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/CloudSearchResponse',
    });
  });

  it('documents the backend servers, their authorization and the OAuth callback page', () => {
    const status = document.components.schemas.ServerStatus;
    expect(status.properties.state.enum).toContain('needs-auth');
    expect(status.properties.oauth).toEqual({ $ref: '#/components/schemas/ServerOAuthStatus' });
    expect(status.properties).not.toHaveProperty('pid');
    const authorize = document.paths['/v1/servers/{serverId}/authorize'].post;
    expect(Object.keys(authorize.responses)).toEqual(expect.arrayContaining(['200', '401', '403', '404', '502']));
    const callback = document.paths['/oauth/callback'].get;
    expect(callback.security).toEqual([]);
    expect(Object.keys(callback.responses['200'].content)).toEqual(['text/html']);
    expect(callback.parameters).toContainEqual(expect.objectContaining({ name: 'state', in: 'query' }));
  });

  it('describes every error response as { success: false, error, code }', () => {
    expect(document.components.schemas.Error.required).toEqual(['success', 'error', 'code']);
    const responses = document.paths['/v1/tools'].get.responses;
    expect(responses['401']).toMatchObject({
      description: 'Missing or unknown token',
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
    });
  });
});

import { describe, expect, it } from 'vitest';
import { cloudSearchRequestSchema, cloudSearchResponseSchema } from './cloud-search-contract.js';

const tool = { toolKey: 'fs:read_file', toolName: 'read_file', serverName: 'fs', description: 'Read a file' };

describe('cloud search wire contract', () => {
  it('accepts the documented requests (docs/cloud-search.md) and keeps extra tool fields', () => {
    const parsed = cloudSearchRequestSchema.parse({
      query: ['read a file'],
      context: 'notes',
      tools: [{ ...tool, annotations: { readOnlyHint: true } }],
      maxResults: 50,
    });
    expect(parsed.tools[0]).toMatchObject({ toolKey: 'fs:read_file', annotations: { readOnlyHint: true } });
    expect(cloudSearchRequestSchema.parse({ query: ['x'], tools: [] }).maxResults).toBeUndefined();
  });

  it('names what is wrong with a bad request', () => {
    const result = cloudSearchRequestSchema.safeParse({ query: [], tools: [{ toolKey: 1 }], maxResults: 51 });
    expect(result.success).toBe(false);
    const paths = result.error?.issues.map((issue) => issue.path.join('.')).sort();
    expect(paths).toEqual(['maxResults', 'query', 'tools.0.serverName', 'tools.0.toolKey', 'tools.0.toolName']);
  });

  it('accepts answers that leave out names, refuses answers without a numeric relevance', () => {
    expect(cloudSearchResponseSchema.parse({ results: [{ toolKey: 'fs:read_file', relevance: 0.5 }] })).toEqual({
      results: [{ toolKey: 'fs:read_file', relevance: 0.5 }],
    });
    expect(
      cloudSearchResponseSchema.safeParse({ results: [{ toolKey: 'fs:read_file', relevance: 'high' }] }).success,
    ).toBe(false);
    expect(cloudSearchResponseSchema.safeParse({ hits: [] }).success).toBe(false);
  });
});

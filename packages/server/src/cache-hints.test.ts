import { parseConfig } from '@search-mcp/shared';
import { describe, expect, it } from 'vitest';
import { FakeManager } from '../test/search-mcp-test-server.js';
import {
  answersDependOnCaller,
  fixedToolListHint,
  listCacheHint,
  resourceReadHint,
  settledListTtlMs,
  withCacheHint,
} from './cache-hints.js';

const plain = parseConfig({ mcpServers: { files: { command: 'files-server' } } }, { env: {} });

describe('answersDependOnCaller', () => {
  it('is false for one config everyone sees the same way', () => {
    expect(answersDependOnCaller(plain)).toBe(false);
  });

  it('is true with tokens, with projects, or with a server limited to projects', () => {
    const withTokens = parseConfig(
      { mcpServers: {}, auth: { tokens: [{ id: 'ci', token: 'ci-token' }], allowAnonymous: false } },
      { env: {} },
    );
    const withProjects = parseConfig({ mcpServers: {}, projects: { web: {} } }, { env: {} });
    const projectServer = parseConfig({ mcpServers: { web: { command: 'web', projects: ['site'] } } }, { env: {} });
    expect(answersDependOnCaller(withTokens)).toBe(true);
    expect(answersDependOnCaller(withProjects)).toBe(true);
    expect(answersDependOnCaller(projectServer)).toBe(true);
  });
});

describe('listCacheHint', () => {
  it('is public and reusable for a minute when every server settled and answers do not depend on the caller', () => {
    const manager = new FakeManager();
    manager.states = [{ id: 'files', state: 'running' } as never, { id: 'web', state: 'failed' } as never];
    expect(listCacheHint({ callerDependent: false, manager })).toEqual({
      ttlMs: settledListTtlMs,
      cacheScope: 'public',
    });
  });

  it('is never public when answers depend on the caller', () => {
    const manager = new FakeManager();
    manager.states = [{ id: 'files', state: 'running' } as never];
    expect(listCacheHint({ callerDependent: true, manager }).cacheScope).toBe('private');
  });

  it('is not reusable while a server is still starting, and follows the state at each answer', () => {
    const manager = new FakeManager();
    manager.states = [{ id: 'files', state: 'starting' } as never];
    expect(listCacheHint({ callerDependent: false, manager }).ttlMs).toBe(0);
    manager.states = [{ id: 'files', state: 'running' } as never];
    expect(listCacheHint({ callerDependent: false, manager }).ttlMs).toBe(settledListTtlMs);
  });

  it('treats a server without a manager (tools of a registry only) as settled', () => {
    expect(listCacheHint({ callerDependent: false, manager: undefined }).ttlMs).toBe(settledListTtlMs);
  });
});

describe('withCacheHint', () => {
  it('adds both fields to a result that has none, without changing the result', () => {
    const result = { contents: [] };
    expect(withCacheHint(result, resourceReadHint)).toEqual({ contents: [], ttlMs: 0, cacheScope: 'private' });
    expect(result).toEqual({ contents: [] });
  });

  it("keeps a backend's own fields, field by field", () => {
    expect(withCacheHint({ contents: [], ttlMs: 5000, cacheScope: 'public' }, resourceReadHint)).toMatchObject({
      ttlMs: 5000,
      cacheScope: 'public',
    });
    expect(withCacheHint({ contents: [], ttlMs: 5000 }, resourceReadHint)).toMatchObject({
      ttlMs: 5000,
      cacheScope: 'private',
    });
  });

  it('gives the fixed meta-tool list an hour, shareable', () => {
    expect(withCacheHint({ tools: [] }, fixedToolListHint)).toMatchObject({ ttlMs: 3_600_000, cacheScope: 'public' });
  });
});

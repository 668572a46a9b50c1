import type { ToolInfo } from '@search-mcp/shared';
import { describe, expect, it } from 'vitest';
import { toolDigest } from './tool-digest.js';

function tool(name: string, description: string, extra: Partial<ToolInfo> = {}): ToolInfo {
  return {
    toolKey: `files:${name}`,
    toolName: name,
    serverName: 'files',
    description,
    inputSchema: { type: 'object' },
    ...extra,
  };
}

const base = tool('read_file', 'Read a file', {
  title: 'Read',
  serverDescription: 'Local files',
  tags: ['disk'],
  inputSchema: { type: 'object', properties: { path: { type: 'string', description: 'Where the file is' } } },
});

describe('toolDigest', () => {
  it('is the same for the same content in a new object', () => {
    expect(toolDigest({ ...base })).toEqual(toolDigest(base));
    expect(toolDigest(structuredClone(base))).toEqual(toolDigest(base));
  });

  it('changes with any searched text, even at the same length', () => {
    const digest = toolDigest(base);
    const edited = (change: Partial<ToolInfo>) => toolDigest({ ...base, ...change });
    expect(edited({ description: 'Reed a file' })).not.toEqual(digest);
    expect(edited({ title: 'Reap' })).not.toEqual(digest);
    expect(edited({ toolKey: 'files:read_fila' })).not.toEqual(digest);
    expect(edited({ serverDescription: 'Local filet' })).not.toEqual(digest);
    expect(edited({ tags: ['dish'] })).not.toEqual(digest);
    expect(edited({ category: 'io' })).not.toEqual(digest);
    expect(
      edited({
        inputSchema: { type: 'object', properties: { path: { type: 'string', description: 'Where the file was' } } },
      }),
    ).not.toEqual(digest);
    expect(
      edited({
        inputSchema: { type: 'object', properties: { pith: { type: 'string', description: 'Where the file is' } } },
      }),
    ).not.toEqual(digest);
  });

  it('tells field boundaries apart', () => {
    expect(toolDigest(tool('a', 'bc', { title: 'x' }))).not.toEqual(toolDigest(tool('a', 'b', { title: 'cx' })));
  });

  it('survives malformed tools', () => {
    expect(() => toolDigest(null)).not.toThrow();
    expect(() => toolDigest({ toolKey: 7 })).not.toThrow();
    expect(toolDigest(null)).toEqual(toolDigest('text'));
  });
});

import type { ToolInfo } from '@search-mcp/shared';
import { describe, expect, it } from 'vitest';
import { sameSearchText } from './same-search-text.js';

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
  inputSchema: {
    type: 'object',
    properties: {
      path: { type: 'string', description: 'Where the file is' },
      mode: { type: 'string', enum: ['text', 'binary'] },
      lines: { type: 'array', items: { description: 'A line range', properties: { from: { title: 'First' } } } },
    },
  },
});

describe('sameSearchText', () => {
  it('is true for the same content in a new object', () => {
    expect(sameSearchText({ ...base }, base)).toBe(true);
    expect(sameSearchText(structuredClone(base), base)).toBe(true);
  });

  it('is false for any edit of a searched text, even at the same length', () => {
    const edited = (change: Partial<ToolInfo>) => sameSearchText({ ...base, ...change }, base);
    const schema = (properties: Record<string, unknown>) => edited({ inputSchema: { type: 'object', properties } });
    const { path, mode, lines } = (base.inputSchema as { properties: Record<string, unknown> }).properties;
    expect(edited({ description: 'Reed a file' })).toBe(false);
    expect(edited({ title: 'Reap' })).toBe(false);
    expect(edited({ annotations: { title: 'Read' } })).toBe(false);
    expect(edited({ toolKey: 'files:read_fila' })).toBe(false);
    expect(edited({ toolName: 'read_fila' })).toBe(false);
    expect(edited({ serverName: 'filez' })).toBe(false);
    expect(edited({ serverDescription: 'Local filet' })).toBe(false);
    expect(edited({ tags: ['dish'] })).toBe(false);
    expect(edited({ tags: ['disk', 'ssd'] })).toBe(false);
    expect(edited({ category: 'io' })).toBe(false);
    expect(schema({ path: { type: 'string', description: 'Where the file was' }, mode, lines })).toBe(false);
    expect(schema({ pith: { type: 'string', description: 'Where the file is' }, mode, lines })).toBe(false);
    expect(schema({ path, mode: { type: 'string', enum: ['text', 'binery'] }, lines })).toBe(false);
    expect(schema({ path, mode, lines: { type: 'array', items: { description: 'A line rang' } } })).toBe(false);
    expect(
      schema({
        path,
        mode,
        lines: { type: 'array', items: { description: 'A line range', properties: { from: {} } } },
      }),
    ).toBe(false);
    expect(schema({ mode, path, lines })).toBe(false);
  });

  it('ignores what the index does not read', () => {
    const deep = {
      type: 'object',
      properties: { a: { properties: { b: { properties: { c: { description: 'x' } } } } } },
    };
    const deeper = structuredClone(deep);
    deeper.properties.a.properties.b.properties.c.description = 'y';
    expect(sameSearchText({ ...base, inputSchema: deep }, { ...base, inputSchema: deeper })).toBe(false);
    const deepest = {
      type: 'object',
      properties: { a: { properties: { b: { properties: { c: { properties: { d: { description: 'x' } } } } } } } },
    };
    const changedDeepest = structuredClone(deepest);
    changedDeepest.properties.a.properties.b.properties.c.properties.d.description = 'y';
    // Depth 3 is past what the index reads (tool-search-fields.ts): the same text for the index.
    expect(sameSearchText({ ...base, inputSchema: deepest }, { ...base, inputSchema: changedDeepest })).toBe(true);
    expect(sameSearchText({ ...base, outputSchema: { type: 'object' } } as ToolInfo, base)).toBe(true);
  });

  it('survives malformed tools', () => {
    expect(() => sameSearchText(null, base)).not.toThrow();
    expect(sameSearchText({ toolKey: 7 }, { toolKey: 8 })).toBe(true);
    expect(sameSearchText(null, 'text')).toBe(true);
    expect(sameSearchText(null, base)).toBe(false);
  });
});

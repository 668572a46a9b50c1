import type { ToolInfo } from '@search-mcp/shared';
import { describe, expect, it } from 'vitest';
import { toolSetFingerprint } from './tool-set-fingerprint.js';

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

const tools: ToolInfo[] = [
  tool('read_file', 'Read a file', {
    inputSchema: { type: 'object', properties: { path: { type: 'string', description: 'Where the file is' } } },
  }),
  tool('write_file', 'Write a file', { title: 'Write', serverDescription: 'Local files', tags: ['disk'] }),
];

describe('toolSetFingerprint', () => {
  it('is the same for the same content in a new array', () => {
    expect(toolSetFingerprint([...tools])).toBe(toolSetFingerprint(tools));
    expect(toolSetFingerprint(tools.map((entry) => structuredClone(entry)))).toBe(toolSetFingerprint(tools));
  });

  it('changes with order, membership, and any searched text, even at the same length', () => {
    const base = toolSetFingerprint(tools);
    const edited = (change: Partial<ToolInfo>, index = 1) =>
      toolSetFingerprint(tools.map((entry, at) => (at === index ? { ...entry, ...change } : entry)));
    expect(toolSetFingerprint([...tools].reverse())).not.toBe(base);
    expect(toolSetFingerprint(tools.slice(1))).not.toBe(base);
    expect(edited({ description: 'Wrote a file' })).not.toBe(base);
    expect(edited({ title: 'Wrong' })).not.toBe(base);
    expect(edited({ serverDescription: 'Local filet' })).not.toBe(base);
    expect(edited({ tags: ['dish'] })).not.toBe(base);
    expect(edited({ category: 'io' })).not.toBe(base);
    expect(
      edited(
        {
          inputSchema: { type: 'object', properties: { path: { type: 'string', description: 'Where the file was' } } },
        },
        0,
      ),
    ).not.toBe(base);
    expect(
      edited(
        { inputSchema: { type: 'object', properties: { pith: { type: 'string', description: 'Where the file is' } } } },
        0,
      ),
    ).not.toBe(base);
  });

  it('tells field boundaries apart', () => {
    expect(toolSetFingerprint([tool('a', 'bc', { title: 'x' })])).not.toBe(
      toolSetFingerprint([tool('a', 'b', { title: 'cx' })]),
    );
  });

  it('survives malformed tools', () => {
    expect(() =>
      toolSetFingerprint([null as unknown as ToolInfo, { toolKey: 7 } as unknown as ToolInfo]),
    ).not.toThrow();
  });
});

import type { ToolInfo } from '@search-mcp/shared';
import { describe, expect, it } from 'vitest';
import { normalizeVector, prepareToolSet, textHash } from './tool-vectors.js';

function tool(server: string, name: string, description = ''): ToolInfo {
  return {
    toolKey: `${server}:${name}`,
    toolName: name,
    serverName: server,
    description,
    inputSchema: { type: 'object' },
  };
}

describe('prepareToolSet', () => {
  it('gives each row its text hash, the first row of each key, and a fingerprint of keys and texts in order', () => {
    const tools = [tool('a', 'read'), tool('b', 'write'), tool('a', 'read')];
    const prepared = prepareToolSet(tools);
    expect(prepared.hashes).toEqual(prepared.texts.map(textHash));
    expect(prepared.hashes[0]).toMatch(/^[0-9a-f]{32}$/);
    expect([...prepared.rowOfKey]).toEqual([
      ['a:read', 0],
      ['b:write', 1],
    ]);
    expect(prepareToolSet([...tools]).fingerprint).toBe(prepared.fingerprint);
    expect(prepareToolSet([tools[1], tools[0], tools[2]] as ToolInfo[]).fingerprint).not.toBe(prepared.fingerprint);
    expect(prepareToolSet([tool('a', 'read', 'changed'), tools[1], tools[2]] as ToolInfo[]).fingerprint).not.toBe(
      prepared.fingerprint,
    );
  });

  it('keeps a row for a malformed entry, with no text', () => {
    const prepared = prepareToolSet([null, tool('a', 'read')] as unknown as ToolInfo[]);
    expect(prepared.texts[0]).toBe('');
    expect(prepared.rowOfKey.get('a:read')).toBe(1);
  });
});

describe('normalizeVector', () => {
  it('scales to unit length and turns a zero or non-finite vector into zeros', () => {
    expect(Array.from(normalizeVector(Float32Array.from([3, 4])))).toEqual([0.6000000238418579, 0.800000011920929]);
    expect(Array.from(normalizeVector(new Float32Array(3)))).toEqual([0, 0, 0]);
    expect(Array.from(normalizeVector(Float32Array.from([1, Number.NaN])))).toEqual([0, 0]);
  });
});

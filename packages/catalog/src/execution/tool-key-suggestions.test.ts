import { describe, expect, it } from 'vitest';
import { closestToolKeys } from './tool-key-suggestions.js';

const keys = [
  'filesystem:read_file',
  'filesystem:read_text_file',
  'filesystem:write_file',
  'github:create_issue',
  'github:get_issue',
  'memory:read_graph',
];

describe('closestToolKeys', () => {
  it('finds typos and the same tool under another separator or server', () => {
    expect(closestToolKeys('filesystem:raed_file', keys)[0]).toBe('filesystem:read_file');
    expect(closestToolKeys('filesystem.read_file', keys)[0]).toBe('filesystem:read_file');
    expect(closestToolKeys('fs:write_file', keys)[0]).toBe('filesystem:write_file');
    expect(closestToolKeys('github:create_issues', keys)[0]).toBe('github:create_issue');
  });

  it('returns at most the limit, and nothing for unrelated input', () => {
    expect(closestToolKeys('filesystem:read', keys, 2)).toHaveLength(2);
    expect(closestToolKeys('slack:post_message', keys)).toEqual([]);
    expect(closestToolKeys('', keys)).toEqual([]);
  });
});

describe('closestToolKeys on a listed server', () => {
  it("prefers the key's own server, and falls back to every server when none of its tools is close", () => {
    const more = [...keys, 'memory:read_file_graph'];
    expect(closestToolKeys('memory:read_grap', more)).toEqual(['memory:read_graph']);
    expect(closestToolKeys('memory:write_file', more)).toEqual(['filesystem:write_file']);
  });
});

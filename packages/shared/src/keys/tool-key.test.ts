import { describe, expect, it } from 'vitest';
import { formatToolKey, parseToolKey, TOOL_KEY_SEPARATOR } from './tool-key.js';

describe('formatToolKey', () => {
  it('joins server id and tool name with ":"', () => {
    expect(TOOL_KEY_SEPARATOR).toBe(':');
    expect(formatToolKey('filesystem', 'read_file')).toBe('filesystem:read_file');
  });

  it('round-trips through parseToolKey, whatever the tool name contains', () => {
    for (const toolName of ['read_file', 'a:b', 'x.y', 'deep__name', '_', ':']) {
      expect(parseToolKey(formatToolKey('srv-1', toolName))).toEqual({ serverId: 'srv-1', toolName });
    }
  });
});

describe('parseToolKey', () => {
  it('accepts the three separators', () => {
    expect(parseToolKey('filesystem:read_file')).toEqual({ serverId: 'filesystem', toolName: 'read_file' });
    expect(parseToolKey('filesystem.read_file')).toEqual({ serverId: 'filesystem', toolName: 'read_file' });
    expect(parseToolKey('filesystem__read_file')).toEqual({ serverId: 'filesystem', toolName: 'read_file' });
  });

  it('splits at the first separator; the tool name keeps the rest', () => {
    expect(parseToolKey('github__create_issue')).toEqual({ serverId: 'github', toolName: 'create_issue' });
    expect(parseToolKey('a:b.c')).toEqual({ serverId: 'a', toolName: 'b.c' });
    expect(parseToolKey('a.b:c')).toEqual({ serverId: 'a', toolName: 'b:c' });
    expect(parseToolKey('a__b__c')).toEqual({ serverId: 'a', toolName: 'b__c' });
    expect(parseToolKey('a___b')).toEqual({ serverId: 'a', toolName: '_b' });
    expect(parseToolKey('my-server:tool')).toEqual({ serverId: 'my-server', toolName: 'tool' });
  });

  it('rejects a single underscore as separator', () => {
    expect(parseToolKey('github_create_issue')).toBeUndefined();
    expect(parseToolKey('a_b:c')).toBeUndefined();
  });

  it('requires an exact, valid server id (no normalization)', () => {
    expect(parseToolKey('GitHub:create')).toBeUndefined();
    expect(parseToolKey('my server:tool')).toBeUndefined();
    expect(parseToolKey('-x:tool')).toBeUndefined();
    expect(parseToolKey(`${'a'.repeat(33)}:tool`)).toBeUndefined();
  });

  it('requires a server id and a tool name', () => {
    expect(parseToolKey('')).toBeUndefined();
    expect(parseToolKey('filesystem')).toBeUndefined();
    expect(parseToolKey(':tool')).toBeUndefined();
    expect(parseToolKey('__tool')).toBeUndefined();
    expect(parseToolKey('filesystem:')).toBeUndefined();
    expect(parseToolKey('filesystem.')).toBeUndefined();
    expect(parseToolKey('filesystem__')).toBeUndefined();
  });
});

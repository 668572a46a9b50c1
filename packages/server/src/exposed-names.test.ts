import { describe, expect, it } from 'vitest';
import { EXPOSED_NAME_PATTERN, ExposedNames } from './exposed-names.js';

const entry = (serverId: string, name: string) => ({ key: `${serverId}:${name}`, serverId, name });

describe('ExposedNames', () => {
  it('lists every entry as server__name by default', () => {
    const names = new ExposedNames([entry('a', 'read'), entry('b', 'write')]);
    expect(names.nameOf('a:read')).toBe('a__read');
    expect(names.keyOf('b__write')).toBe('b:write');
    expect(names.keyOf('read')).toBeUndefined();
    expect(names.shared).toEqual([]);
  });

  it('lists own names under original, and server__name only for the names two servers share', () => {
    const names = new ExposedNames([entry('a', 'read'), entry('b', 'read'), entry('b', 'write'), entry('c', 'x')], {
      style: 'original',
    });
    expect(names.nameOf('a:read')).toBe('a__read');
    expect(names.nameOf('b:read')).toBe('b__read');
    expect(names.nameOf('b:write')).toBe('write');
    expect(names.nameOf('c:x')).toBe('x');
    expect(names.keyOf('write')).toBe('b:write');
    expect(names.keyOf('read')).toBeUndefined();
    expect(names.shared).toEqual([{ name: 'read', keys: ['a:read', 'b:read'] }]);
  });

  it('falls back to the prefixed form for names clients reject and for reserved names', () => {
    const long = `t${'-long'.repeat(20)}`;
    const names = new ExposedNames([entry('a', 'fs.read'), entry('a', long), entry('a', 'tool_execute')], {
      style: 'original',
      reserved: new Set(['tool_execute']),
    });
    expect(names.nameOf('a:fs.read')).toMatch(/^a__fs_read_[0-9a-f]{8}$/);
    expect(names.nameOf('a:tool_execute')).toBe('a__tool_execute');
    const listed = names.nameOf(`a:${long}`) ?? '';
    expect(EXPOSED_NAME_PATTERN.test(listed)).toBe(true);
    expect(names.keyOf(listed)).toBe(`a:${long}`);
  });

  it('never lets a fallback take a name another entry is listed under', () => {
    // `b__x` is a tool's own name on server c; b's shared `x` would fall back to exactly that.
    const names = new ExposedNames([entry('a', 'x'), entry('b', 'x'), entry('c', 'b__x')], { style: 'original' });
    expect(names.nameOf('c:b__x')).toBe('b__x');
    expect(names.nameOf('b:x')).toMatch(/^b__x__[0-9a-f]{8}$/);
    expect(names.keyOf(names.nameOf('b:x') ?? '')).toBe('b:x');
  });
});

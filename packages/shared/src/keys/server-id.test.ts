import { describe, expect, it } from 'vitest';
import { isValidServerId, normalizeServerId, SERVER_ID_PATTERN } from './server-id.js';

describe('normalizeServerId', () => {
  it('keeps ids that are already valid', () => {
    expect(normalizeServerId('filesystem')).toBe('filesystem');
    expect(normalizeServerId('my-server-2')).toBe('my-server-2');
    expect(normalizeServerId('9lives')).toBe('9lives');
  });

  it('lower-cases and turns every other character into a dash', () => {
    expect(normalizeServerId('My Server')).toBe('my-server');
    expect(normalizeServerId('GitHub_MCP.v2')).toBe('github-mcp-v2');
    expect(normalizeServerId('a:b')).toBe('a-b');
  });

  it('turns one non-ASCII code point into one dash', () => {
    expect(normalizeServerId('café')).toBe('caf-');
    expect(normalizeServerId('x🚀y')).toBe('x-y');
  });

  it('drops leading dashes', () => {
    expect(normalizeServerId('__private')).toBe('private');
    expect(normalizeServerId('--x')).toBe('x');
    expect(normalizeServerId(' @scope/server')).toBe('scope-server');
  });

  it('cuts to 32 characters', () => {
    const id = normalizeServerId('a'.repeat(40));
    expect(id).toBe('a'.repeat(32));
    expect(normalizeServerId(`__${'b'.repeat(40)}`)).toBe('b'.repeat(32));
  });

  it('returns undefined when nothing usable is left', () => {
    expect(normalizeServerId('')).toBeUndefined();
    expect(normalizeServerId('___')).toBeUndefined();
    expect(normalizeServerId('...')).toBeUndefined();
  });

  it('always yields ids matching the pattern', () => {
    for (const key of ['A B C', 'x'.repeat(100), 'Ünïcödé', 'a--b', '1', 'some.thing_else:here']) {
      const id = normalizeServerId(key);
      expect(id).toBeDefined();
      expect(id).toMatch(SERVER_ID_PATTERN);
    }
  });
});

describe('isValidServerId', () => {
  it('accepts lower-case letters, digits and dashes, starting with a letter or digit, up to 32', () => {
    expect(isValidServerId('a')).toBe(true);
    expect(isValidServerId('a-')).toBe(true);
    expect(isValidServerId('a'.repeat(32))).toBe(true);
  });

  it('rejects everything else', () => {
    expect(isValidServerId('')).toBe(false);
    expect(isValidServerId('-a')).toBe(false);
    expect(isValidServerId('A')).toBe(false);
    expect(isValidServerId('a_b')).toBe(false);
    expect(isValidServerId('a.b')).toBe(false);
    expect(isValidServerId('a:b')).toBe(false);
    expect(isValidServerId('a'.repeat(33))).toBe(false);
  });
});

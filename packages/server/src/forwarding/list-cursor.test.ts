import { describe, expect, it } from 'vitest';
import { JsonRpcWireError } from '../wire-errors.js';
import { decodeListCursor, encodeListCursor, refuseCursor } from './list-cursor.js';

function codeOf(action: () => unknown): number | undefined {
  try {
    action();
  } catch (error) {
    return error instanceof JsonRpcWireError ? error.code : undefined;
  }
  return undefined;
}

describe('list cursors', () => {
  it('round-trips a server and its own cursor, and a server alone', () => {
    const cursor = encodeListCursor('resources', { serverId: 'a', cursor: 'page=2' });
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeListCursor('resources', cursor, ['a', 'b'])).toEqual({ serverId: 'a', cursor: 'page=2' });
    expect(decodeListCursor('resources', encodeListCursor('resources', { serverId: 'b' }), ['b'])).toEqual({
      serverId: 'b',
    });
  });

  it('refuses with -32602 what it did not make for this list and caller', () => {
    const ours = encodeListCursor('resources', { serverId: 'a' });
    const raw = (body: unknown) => Buffer.from(JSON.stringify(body)).toString('base64url');
    expect(codeOf(() => decodeListCursor('resources', 'x', ['a']))).toBe(-32602);
    expect(codeOf(() => decodeListCursor('resources', 'not base64!', ['a']))).toBe(-32602);
    expect(codeOf(() => decodeListCursor('resources', '', ['a']))).toBe(-32602);
    expect(codeOf(() => decodeListCursor('resourceTemplates', ours, ['a']))).toBe(-32602);
    expect(codeOf(() => decodeListCursor('resources', ours, ['b']))).toBe(-32602);
    expect(codeOf(() => decodeListCursor('resources', raw({ v: 2, k: 'resources', s: 'a' }), ['a']))).toBe(-32602);
    expect(codeOf(() => decodeListCursor('resources', raw({ v: 1, k: 'resources', s: 'a', c: 5 }), ['a']))).toBe(
      -32602,
    );
    expect(codeOf(() => decodeListCursor('resources', raw([1, 2]), ['a']))).toBe(-32602);
  });

  it('refuses any cursor on a list answered in one page', () => {
    expect(codeOf(() => refuseCursor('prompts/list', 'abc'))).toBe(-32602);
    expect(codeOf(() => refuseCursor('prompts/list', undefined))).toBeUndefined();
  });
});

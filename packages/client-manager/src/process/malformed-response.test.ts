import { describe, expect, it } from 'vitest';
import { normalizeResponse } from './malformed-response.js';

const problemOf = (value: unknown) => normalizeResponse(value)?.problem;

describe('normalizeResponse', () => {
  it('leaves requests, notifications, garbage and replies without a usable id to the caller', () => {
    expect(normalizeResponse({ jsonrpc: '2.0', id: 1, method: 'ping' })).toBeUndefined();
    expect(normalizeResponse({ jsonrpc: '2.0', method: 'notifications/progress' })).toBeUndefined();
    expect(normalizeResponse('text')).toBeUndefined();
    expect(
      normalizeResponse({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } }),
    ).toBeUndefined();
    expect(normalizeResponse({ jsonrpc: '2.0', id: 1.5, result: {} })).toBeUndefined();
    expect(normalizeResponse({ id: 3 })).toBeUndefined();
  });

  it('passes good replies, dropping unknown top-level fields the SDK would reject', () => {
    expect(normalizeResponse({ jsonrpc: '2.0', id: 'a', result: { x: 1 }, extra: true })).toEqual({
      message: { jsonrpc: '2.0', id: 'a', result: { x: 1 } },
    });
    expect(normalizeResponse({ jsonrpc: '2.0', id: 2, error: { code: -1, message: 'no', data: [1] }, x: 0 })).toEqual({
      message: { jsonrpc: '2.0', id: 2, error: { code: -1, message: 'no', data: [1] } },
    });
  });

  it('turns each malformed reply into an error reply for its id that says what was wrong', () => {
    expect(normalizeResponse({ jsonrpc: '2.0', id: 7, result: null })).toEqual({
      message: {
        jsonrpc: '2.0',
        id: 7,
        error: {
          code: -32603,
          message: 'malformed response from the MCP server: `result` is null (expected an object)',
        },
      },
      problem: '`result` is null (expected an object)',
    });
    expect(problemOf({ jsonrpc: '1.0', id: 7, result: {} })).toBe('`jsonrpc` is not "2.0"');
    expect(problemOf({ id: 7, result: {} })).toBe('`jsonrpc` is not "2.0"');
    expect(problemOf({ jsonrpc: '2.0', id: 7, result: {}, error: {} })).toBe('it has both `result` and `error`');
    expect(problemOf({ jsonrpc: '2.0', id: 7, result: { _meta: 'x' } })).toBe(
      '`result._meta` is a string (expected an object)',
    );
    expect(problemOf({ jsonrpc: '2.0', id: 7, error: 'failed' })).toBe('`error` is a string (expected an object)');
    expect(problemOf({ jsonrpc: '2.0', id: 7, error: { code: 1.5, message: 'odd' } })).toBe(
      '`error.code` is a number (expected an integer): odd',
    );
    expect(problemOf({ jsonrpc: '2.0', id: 7, error: { message: 'no code' } })).toBe(
      '`error.code` is missing (expected an integer): no code',
    );
    expect(problemOf({ jsonrpc: '2.0', id: 7 })).toBe('it has neither `result` nor `error`');
  });

  it("keeps the backend's code of an error without a message", () => {
    expect(normalizeResponse({ jsonrpc: '2.0', id: 7, error: { code: -32000, data: { why: 1 } } })?.message).toEqual({
      jsonrpc: '2.0',
      id: 7,
      error: {
        code: -32000,
        message: 'malformed response from the MCP server: error -32000 without a message',
        data: { why: 1 },
      },
    });
  });
});

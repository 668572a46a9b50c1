import { describe, expect, it } from 'vitest';
import { isJsonRpcMessage } from './json-rpc-message.js';

describe('isJsonRpcMessage', () => {
  it('accepts requests, notifications, results and errors, and nothing else', () => {
    const valid = [
      { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      { jsonrpc: '2.0', method: 'notifications/progress', params: { progress: 1 } },
      { jsonrpc: '2.0', id: 'a', result: {} },
      { jsonrpc: '2.0', id: 2, error: { code: -32602, message: 'bad' } },
    ];
    const invalid = [
      null,
      [],
      'text',
      { id: 1, method: 'x' },
      { jsonrpc: '1.0', id: 1, method: 'x' },
      { jsonrpc: '2.0', id: 1 },
      { jsonrpc: '2.0', id: 1, result: 5 },
      { jsonrpc: '2.0', id: 1, error: { message: 'no code' } },
      { jsonrpc: '2.0', id: {}, method: 'x' },
      { jsonrpc: '2.0', id: null, result: {} },
      { jsonrpc: '2.0', id: null, method: 'x' },
      { jsonrpc: '2.0', error: { code: -32700, message: 'no id at all' } },
      { jsonrpc: '2.0', id: null, error: { code: -32700 } },
    ];
    expect(valid.map(isJsonRpcMessage)).toEqual(valid.map(() => true));
    expect(invalid.map(isJsonRpcMessage)).toEqual(invalid.map(() => false));
  });

  it('accepts an error reply with id null, as sent for a request whose id could not be read', () => {
    const parseErrorReply = { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } };
    expect(isJsonRpcMessage(parseErrorReply)).toBe(true);
    expect(isJsonRpcMessage(JSON.parse(JSON.stringify(parseErrorReply)))).toBe(true);
  });
});

import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { loadedLegacyClient, loadLegacyClient } from './legacy-client-loader.js';
import { httpStatusOf, isConnectionClosed, isSdkTimeout, wireErrorOf } from '../connection/protocol-errors.js';

// Vitest gives each test file its own module graph: here the loader starts unloaded, as in a host that just started.
describe('the 1.x SDK client, loaded on the first connect', () => {
  it('says what to do when its module is asked for before it is loaded', () => {
    expect(() => loadedLegacyClient()).toThrow('the 1.x MCP client is not loaded yet (loadLegacyClient() first)');
  });

  it('reads the 1.x errors once loaded, and loads once', async () => {
    const timeout = new McpError(ErrorCode.RequestTimeout, 'Request timed out');
    // Not recognised before: in a host nothing of that SDK can have thrown before it was loaded.
    expect(isSdkTimeout(timeout)).toBe(false);

    const module = await loadLegacyClient();
    expect(await loadLegacyClient()).toBe(module);
    expect(loadedLegacyClient()).toBe(module);

    expect(isSdkTimeout(timeout)).toBe(true);
    expect(isConnectionClosed(new McpError(ErrorCode.ConnectionClosed, 'Connection closed'))).toBe(true);
    expect(wireErrorOf(new McpError(-32602, 'bad input', { field: 'title' }))).toEqual({
      code: -32602,
      message: 'MCP error -32602: bad input',
      data: { field: 'title' },
    });
    expect(httpStatusOf(new StreamableHTTPError(401, 'Unauthorized'))).toBe(401);
    // A failure that was no HTTP answer keeps no status.
    expect(httpStatusOf(new StreamableHTTPError(-1, 'fetch failed'))).toBeUndefined();
    expect(httpStatusOf(new Error('other'))).toBeUndefined();
    expect(wireErrorOf(new Error('other'))).toBeUndefined();
  });
});

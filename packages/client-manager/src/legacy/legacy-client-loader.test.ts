import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it, vi } from 'vitest';
import { ProtocolErrors } from '../connection/protocol-errors.js';
import { loadedLegacyClient, loadLegacyClient } from './legacy-client-loader.js';

describe('the 1.x SDK client, loaded on the first connect', () => {
  it('says what to do when its module is asked for before it is loaded', async () => {
    // A package's test files share their worker's modules (tooling/vitest.base.ts), so another file may have loaded
    // it already: a fresh instance of the loader starts unloaded, as in a host that just started.
    vi.resetModules();
    const fresh = await import('./legacy-client-loader.js');
    expect(() => fresh.loadedLegacyClient()).toThrow('the 1.x MCP client is not loaded yet (loadLegacyClient() first)');
  });

  it('loads once, and its reader reads the 1.x errors once a manager adopted it', async () => {
    const errors = new ProtocolErrors();
    const timeout = new McpError(ErrorCode.RequestTimeout, 'Request timed out');
    // Not recognised before: nothing of that SDK can have reached a manager that has not loaded it.
    expect(errors.isSdkTimeout(timeout)).toBe(false);

    const module = await loadLegacyClient();
    expect(await loadLegacyClient()).toBe(module);
    expect(loadedLegacyClient()).toBe(module);
    errors.adoptLegacy(module.legacyErrorReader);

    expect(errors.isSdkTimeout(timeout)).toBe(true);
    expect(errors.isConnectionClosed(new McpError(ErrorCode.ConnectionClosed, 'Connection closed'))).toBe(true);
    expect(errors.wireErrorOf(new McpError(-32602, 'bad input', { field: 'title' }))).toEqual({
      code: -32602,
      message: 'MCP error -32602: bad input',
      data: { field: 'title' },
    });
    expect(errors.httpStatusOf(new StreamableHTTPError(401, 'Unauthorized'))).toBe(401);
    // A failure that was no HTTP answer keeps no status.
    expect(errors.httpStatusOf(new StreamableHTTPError(-1, 'fetch failed'))).toBeUndefined();
    expect(errors.httpStatusOf(new Error('other'))).toBeUndefined();
    expect(errors.wireErrorOf(new Error('other'))).toBeUndefined();
  });

  it("is one manager's state: a second manager's reader set is its own", async () => {
    const first = new ProtocolErrors();
    const second = new ProtocolErrors();
    first.adoptLegacy((await loadLegacyClient()).legacyErrorReader);
    const refused = new McpError(-32602, 'bad input');
    expect(first.wireErrorOf(refused)?.code).toBe(-32602);
    // The module is loaded in this process, but the second manager never adopted it.
    expect(second.wireErrorOf(refused)).toBeUndefined();
  });
});

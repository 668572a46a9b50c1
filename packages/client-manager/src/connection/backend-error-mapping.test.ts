import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { BackendError, TimeoutError } from '@search-mcp/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import { stripMcpErrorPrefix, toBackendFailure } from './backend-error-mapping.js';
import { loadLegacyClient } from '../legacy/legacy-client-loader.js';
import { ProtocolErrors } from './protocol-errors.js';

const errors = new ProtocolErrors();
const context = { serverId: 'github', operation: 'tools/call create_issue', timeoutMs: 1000, errors };

describe('toBackendFailure', () => {
  // The 1.x errors are read once that SDK is loaded, as every connect does before anything can throw one.
  beforeAll(async () => {
    errors.adoptLegacy((await loadLegacyClient()).legacyErrorReader);
  });

  it('strips every "MCP error <code>:" prefix a chain of re-throws added', () => {
    expect(stripMcpErrorPrefix('MCP error -32602: MCP error -32602: bad input')).toBe('bad input');
    const failure = toBackendFailure(new McpError(-32602, 'MCP error -32602: bad input', { field: 'title' }), context);
    expect(failure).toBeInstanceOf(BackendError);
    expect((failure as BackendError).message).toBe('bad input');
    expect((failure as BackendError).backendCode).toBe(-32602);
    expect((failure as BackendError).data).toEqual({ field: 'title' });
  });

  it('turns the SDK request timeout into TimeoutError naming server, operation and limit', () => {
    const failure = toBackendFailure(new McpError(ErrorCode.RequestTimeout, 'Request timed out'), context);
    expect(TimeoutError.isInstance(failure)).toBe(true);
    expect((failure as TimeoutError).message).toBe(
      "MCP server 'github' did not answer tools/call create_issue within 1000 ms",
    );
  });

  it('describes a closed connection with the exit detail', () => {
    const failure = toBackendFailure(new McpError(ErrorCode.ConnectionClosed, 'Connection closed'), {
      ...context,
      connectionDetail: () => 'exit code 1',
    });
    expect((failure as BackendError).message).toBe(
      "MCP server 'github' closed the connection during tools/call create_issue (exit code 1)",
    );
  });

  it("passes the caller's cancellation reason through", () => {
    const controller = new AbortController();
    const reason = new Error('stop');
    controller.abort(reason);
    expect(toBackendFailure(new Error('AbortError'), { ...context, signal: controller.signal })).toBe(reason);
  });

  it('wraps anything else with the server id', () => {
    const failure = toBackendFailure(new TypeError('fetch failed'), context);
    expect((failure as BackendError).message).toBe("MCP server 'github': fetch failed");
  });
});

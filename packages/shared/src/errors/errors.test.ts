import { describe, expect, it } from 'vitest';
import {
  AuthenticationError,
  AuthorizationError,
  BackendError,
  ConfigError,
  formatIssues,
  JsonRpcErrorCode,
  RateLimitError,
  SearchMcpError,
  SearchProviderError,
  ServerNotRunningError,
  TimeoutError,
  ToolDisabledError,
  ToolNotFoundError,
  ValidationError,
} from './index.js';

const examples = [
  [new ConfigError({ issues: [{ path: 'a', message: 'bad' }] }), ConfigError, 'CONFIG_ERROR', -32603, 500, false],
  [new ToolNotFoundError({ toolName: 'x:y' }), ToolNotFoundError, 'TOOL_NOT_FOUND', -32602, 404, false],
  [new ToolDisabledError({ toolName: 'x:y' }), ToolDisabledError, 'TOOL_DISABLED', -32602, 403, false],
  [new ValidationError({ issues: [] }), ValidationError, 'VALIDATION_ERROR', -32602, 400, false],
  [new ServerNotRunningError({ serverId: 'x' }), ServerNotRunningError, 'SERVER_NOT_RUNNING', -32000, 503, true],
  [new BackendError({ serverId: 'x', message: 'm' }), BackendError, 'BACKEND_ERROR', -32000, 502, false],
  [new TimeoutError({ timeoutMs: 5 }), TimeoutError, 'TIMEOUT', -32001, 408, false],
  [new AuthenticationError(), AuthenticationError, 'AUTHENTICATION_ERROR', -32000, 401, false],
  [new AuthorizationError(), AuthorizationError, 'AUTHORIZATION_ERROR', -32000, 403, false],
  [new RateLimitError(), RateLimitError, 'RATE_LIMIT_EXCEEDED', -32000, 429, true],
  [
    new SearchProviderError({ providerId: 'p', failure: 'provider', message: 'm' }),
    SearchProviderError,
    'SEARCH_PROVIDER_ERROR',
    -32603,
    502,
    false,
  ],
] as const;

describe('error classes', () => {
  it('carry code, JSON-RPC code, HTTP status and retryability as documented', () => {
    for (const [error, , code, jsonRpcCode, statusCode, isRetryable] of examples) {
      expect([error.code, error.jsonRpcCode, error.statusCode, error.isRetryable], error.name).toEqual([
        code,
        jsonRpcCode,
        statusCode,
        isRetryable,
      ]);
      expect(error).toBeInstanceOf(Error);
    }
  });

  it('are told apart by isInstance, each only by its own class and the base', () => {
    for (const [error, errorClass] of examples) {
      expect(SearchMcpError.isInstance(error)).toBe(true);
      for (const [, otherClass] of examples) {
        expect(otherClass.isInstance(error), `${otherClass.name}.isInstance(${error.name})`).toBe(
          otherClass === errorClass,
        );
      }
    }
    for (const value of [new Error('plain'), null, undefined, 'TIMEOUT', { code: 'TIMEOUT' }]) {
      expect(SearchMcpError.isInstance(value)).toBe(false);
      expect(TimeoutError.isInstance(value)).toBe(false);
    }
  });

  it('recognize an error from another copy of this package by its Symbol.for markers', () => {
    const foreign = Object.assign(new Error('from a bundled copy'), {
      [Symbol.for('search-mcp.error')]: true,
      [Symbol.for('search-mcp.error.TimeoutError')]: true,
    });
    expect(SearchMcpError.isInstance(foreign)).toBe(true);
    expect(TimeoutError.isInstance(foreign)).toBe(true);
    expect(BackendError.isInstance(foreign)).toBe(false);
  });

  it('serialize without their cause, which may hold a backend secret', () => {
    const error = new BackendError({ serverId: 'x', message: 'failed', cause: new Error('secret-in-cause') });
    expect(error.cause).toBeInstanceOf(Error);
    expect(JSON.stringify(error)).toBe('{"name":"BackendError","code":"BACKEND_ERROR","message":"failed"}');
  });

  it('write their default messages from their fields', () => {
    expect(new ToolNotFoundError({ toolName: 'fs:x' }).message).toBe('Tool not found: fs:x');
    expect(new ToolDisabledError({ toolName: 'fs:x', reason: 'toolPermissions' }).message).toBe(
      'Tool is disabled: fs:x (toolPermissions)',
    );
    expect(new ServerNotRunningError({ serverId: 'fs' }).message).toBe("MCP server 'fs' is not running");
    expect(new TimeoutError({ timeoutMs: 20 }).message).toBe('Timed out after 20 ms');
    expect(new ValidationError({ issues: [{ path: 'arguments.a', message: 'required' }] }).message).toBe(
      'Invalid arguments: arguments.a: required',
    );
    const config = new ConfigError({
      issues: [
        { path: 'a.b', message: 'bad' },
        { path: '', message: 'root' },
      ],
      file: '/c.json',
    });
    expect(config.message).toBe('Invalid configuration in /c.json:\n  - a.b: bad\n  - root');
    expect(config.file).toBe('/c.json');
  });

  it('make a search provider failure retryable on timeout, network failure or a 5xx status', () => {
    const failure = (options: Partial<ConstructorParameters<typeof SearchProviderError>[0]>) =>
      new SearchProviderError({ providerId: 'p', failure: 'http', message: 'm', ...options }).isRetryable;
    expect([failure({ failure: 'timeout' }), failure({ failure: 'network' }), failure({ status: 503 })]).toEqual([
      true,
      true,
      true,
    ]);
    expect([
      failure({ status: 400 }),
      failure({ failure: 'invalid-response' }),
      failure({ failure: 'cancelled' }),
    ]).toEqual([false, false, false]);
  });
});

describe('formatIssues', () => {
  it('writes issues on one line, path first', () => {
    expect(
      formatIssues([
        { path: 'a.b', message: 'bad' },
        { path: '', message: 'root' },
      ]),
    ).toBe('a.b: bad; root');
    expect(formatIssues([])).toBe('');
  });
});

describe('JsonRpcErrorCode', () => {
  it('holds the JSON-RPC 2.0 codes, the MCP server range and 2026-07-28 HeaderMismatch and MissingRequiredClientCapability', () => {
    expect(JsonRpcErrorCode).toEqual({
      ParseError: -32700,
      InvalidRequest: -32600,
      MethodNotFound: -32601,
      InvalidParams: -32602,
      InternalError: -32603,
      ServerError: -32000,
      RequestTimeout: -32001,
      HeaderMismatch: -32020,
      MissingRequiredClientCapability: -32021,
    });
  });
});

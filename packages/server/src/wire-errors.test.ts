import { Client, ProtocolError } from '@modelcontextprotocol/client';
import { InMemoryTransport, Server } from '@modelcontextprotocol/server';
import { BackendError, JsonRpcErrorCode, RateLimitError } from '@search-mcp/shared';
import { afterEach, describe, expect, it } from 'vitest';
import { errorFields } from './audit/request-audit.js';
import { metaToolProtocolError, peerErrorOf, toJsonRpcError } from './wire-errors.js';

/**
 * A 2.x `Server` (what Search MCP serves on) with a real 2.x client: the errors our server→client requests end in
 * come from the SDK itself, as they do when a front client declines, fails or goes away.
 */
async function frontClient(answer: () => Promise<never> | never) {
  const server = new Server({ name: 'search-mcp', version: '1' }, { capabilities: {} });
  const client = new Client({ name: 'front', version: '1' }, { capabilities: { elicitation: { form: {} } } });
  client.setRequestHandler('elicitation/create', answer);
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await server.connect(serverTransport);
  await client.connect(clientTransport);
  opened.push(client, server);
  const ask = (options?: { timeout: number }) =>
    server
      .elicitInput({ mode: 'form', message: 'Name?', requestedSchema: { type: 'object', properties: {} } }, options)
      .then(
        () => undefined,
        (error: unknown) => error,
      );
  return { client, ask };
}

const opened: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((peer) => peer.close()));
});

describe('wire errors of the front client, from the 2.x SDK', () => {
  it("keeps the client's own error: code, message and data", async () => {
    const { ask } = await frontClient(() => {
      throw new ProtocolError(-32602, 'No such form field', { field: 'name' });
    });
    const error = await ask();
    expect(toJsonRpcError(error, '')).toMatchObject({
      code: -32602,
      message: 'No such form field',
      data: { field: 'name' },
    });
    expect(errorFields(error)).toEqual({ errorCode: '-32602' });
  });

  it('makes a client that went away -32000 "Connection closed" and one that never answers -32001', async () => {
    const silent = await frontClient(() => new Promise<never>(() => {}));
    const timedOut = await silent.ask({ timeout: 50 });
    expect(toJsonRpcError(timedOut, '')).toMatchObject({ code: JsonRpcErrorCode.RequestTimeout });
    expect(errorFields(timedOut)).toEqual({ errorCode: String(JsonRpcErrorCode.RequestTimeout) });

    const leaving = await frontClient(() => new Promise<never>(() => {}));
    const pending = leaving.ask();
    await leaving.client.close();
    const closed = toJsonRpcError(await pending, '');
    expect([closed.code, closed.message]).toEqual([JsonRpcErrorCode.ServerError, expect.stringMatching(/closed/i)]);
  });
});

describe('wire errors read by shape', () => {
  it('reads a 1.x McpError without the 1.x SDK: its code, its data, its message without every prefix', () => {
    const mcpError = Object.assign(new Error('MCP error -32602: MCP error -32602: Unknown prompt'), {
      code: -32602,
      data: { name: 'x' },
    });
    expect(peerErrorOf(mcpError)).toEqual({ code: -32602, message: 'Unknown prompt', data: { name: 'x' } });
  });

  it('takes nothing else for a wire error: no code, a string code, a fractional code, not an Error', () => {
    for (const value of [
      new Error('plain'),
      Object.assign(new Error('system'), { code: 'ECONNRESET' }),
      Object.assign(new Error('odd'), { code: 1.5 }),
      { code: -32602, message: 'not an Error' },
      undefined,
    ]) {
      expect(peerErrorOf(value)).toBeUndefined();
    }
    expect(toJsonRpcError(Object.assign(new Error('boom'), { code: 'EPIPE' }), '')).toMatchObject({
      code: JsonRpcErrorCode.InternalError,
      message: 'boom',
    });
    expect(errorFields(new Error('plain'))).toEqual({ errorCode: 'INTERNAL_ERROR' });
  });

  it('leaves our own errors to their classes', () => {
    const failure = new BackendError({ serverId: 'fs', message: "MCP server 'fs' failed", backendCode: -32002 });
    expect(errorFields(failure)).toEqual({ errorCode: failure.code });
    expect(toJsonRpcError(failure, '').code).toBe(failure.jsonRpcCode);
  });

  it("passes a backend's -32021 (missing client capability) on with its data, like -32042", () => {
    const requiredCapabilities = { elicitation: { form: {} } };
    const missing = new BackendError({
      serverId: 'new',
      message: "Cannot request input 'answer' (elicitation/create)",
      backendCode: -32021,
      data: { requiredCapabilities },
    });
    expect(toJsonRpcError(missing, 'new__ask')).toMatchObject({
      code: -32021,
      message: "Cannot request input 'answer' (elicitation/create)",
      data: { requiredCapabilities },
    });
  });
});

describe('rate limits on the wire (docs/trust.md, "Rate limits")', () => {
  it('makes a RateLimitError a -32000 error with the retry time and the limit, for direct calls and meta-tools', () => {
    const refusal = new RateLimitError({
      message: "Rate limit exceeded: token 'ci' may make 60 calls a minute",
      retryAfterMs: 1500,
      limit: 'security.rateLimits.perToken',
    });
    const direct = toJsonRpcError(refusal, 'fs__read');
    expect({ code: direct.code, message: direct.message, data: direct.data }).toEqual({
      code: -32000,
      message: "Rate limit exceeded: token 'ci' may make 60 calls a minute",
      data: { retryAfterMs: 1500, limit: 'security.rateLimits.perToken' },
    });
    expect(metaToolProtocolError(refusal)).toEqual(direct);
    // Other failures of a meta-tool stay `isError` results.
    expect(metaToolProtocolError(new BackendError({ serverId: 'fs', message: 'down' }))).toBeUndefined();
  });
});

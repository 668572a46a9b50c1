import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { parseConfig } from '@search-mcp/shared';
import { fixtureServerPath } from '@search-mcp/test-kit';
import { afterEach, describe, expect, it } from 'vitest';
import { createSearchMcpRuntime, type SearchMcpRuntime } from './search-mcp-runtime.js';

// Two runtimes in one process, each with its own 2025 backend (`old`: its tool `ask-elicitation` pushes an
// elicitation request during the call), and a bare 2026-07-28 peer for each: the round one runtime answers is held
// there and sealed with its own key, so the other neither holds it nor accepts its state.
const runtimes: SearchMcpRuntime[] = [];
const closers: Array<() => Promise<void>> = [];

afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
  await Promise.all(runtimes.splice(0).map((runtime) => runtime.close()));
});

async function startedRuntime(): Promise<SearchMcpRuntime> {
  const runtime = createSearchMcpRuntime({
    config: parseConfig({
      mcpServers: {
        old: { command: process.execPath, args: [fixtureServerPath('feature-server.mjs'), '--name', 'old'] },
      },
      exposure: { mode: 'proxy' },
    }),
  });
  runtimes.push(runtime);
  expect((await runtime.startBackends()).map((status) => status.state)).toEqual(['running']);
  return runtime;
}

/**
 * A bare 2026-07-28 peer of one of the runtime's connections: every request carries the envelope (no handshake),
 * and answers are read as they are on the wire (`resultType`, `requestState`).
 */
async function barePeer(runtime: SearchMcpRuntime) {
  const [peer, serverTransport] = InMemoryTransport.createLinkedPair();
  const connection = runtime.createServer();
  await connection.connect(serverTransport);
  const answers = new Map<number, (message: Record<string, unknown>) => void>();
  peer.onmessage = (message) => {
    const { id } = message as { id?: unknown };
    if (typeof id === 'number') answers.get(id)?.(message as Record<string, unknown>);
  };
  await peer.start();
  closers.push(async () => {
    await peer.close();
    await connection.close();
  });
  const envelope = {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientInfo': { name: 'bare', version: '1' },
    'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } },
  };
  let nextId = 0;
  return (params: Record<string, unknown>): Promise<Record<string, unknown>> => {
    const id = ++nextId;
    const answered = new Promise<Record<string, unknown>>((resolve) => answers.set(id, resolve));
    void peer.send({ jsonrpc: '2.0', id, method: 'tools/call', params: { ...params, _meta: envelope } });
    return answered;
  };
}

describe('two runtimes in one process', () => {
  it('hold their own input rounds and refuse each other’s requestState', { timeout: 60_000 }, async () => {
    const [first, second] = await Promise.all([startedRuntime(), startedRuntime()]);
    expect(first.pendingInputs).not.toBe(second.pendingInputs);
    const [callFirst, callSecond] = await Promise.all([barePeer(first), barePeer(second)]);
    const call = { name: 'old__ask-elicitation', arguments: { message: 'Name?' } };

    const round = (await callFirst(call)).result as {
      resultType?: string;
      inputRequests?: Record<string, unknown>;
      requestState?: string;
    };
    expect(round.resultType).toBe('input_required');
    const [key] = Object.keys(round.inputRequests ?? {});
    expect(key).toBe('elicitation-1');
    // The call waits in the runtime that answered the round, and only there.
    expect(first.pendingInputs.size).toBe(1);
    expect(second.pendingInputs.size).toBe(0);

    const retry = {
      ...call,
      inputResponses: { [key as string]: { action: 'accept', content: { name: 'Ada' } } },
      requestState: round.requestState,
    };
    // The other runtime's key did not seal this state: refused, and the held call is left alone.
    expect((await callSecond(retry)).error).toMatchObject({
      code: -32602,
      message: 'Invalid or expired requestState',
    });
    expect(first.pendingInputs.size).toBe(1);

    // Its own runtime continues the call with the answer.
    const answered = (await callFirst(retry)).result as { content?: Array<{ text?: string }> };
    expect(JSON.parse(answered.content?.[0]?.text ?? '')).toEqual({ action: 'accept', content: { name: 'Ada' } });
    expect(first.pendingInputs.size).toBe(0);
  });
});

import { describe, expect, it } from 'vitest';
import { recordingRefusals } from './refusal-recording-fetch.js';

const refusal = {
  jsonrpc: '2.0',
  id: 0,
  error: { code: -32022, message: 'Unsupported protocol version', data: { supported: ['2026-07-28'] } },
};

function answering(status: number, body: string) {
  return async () => new Response(body, { status, headers: { 'content-type': 'application/json' } });
}

describe('the refusal-recording fetch of a 2025 Streamable HTTP transport', () => {
  it('keeps the JSON-RPC error of a POST refused with 400, and leaves the body for the transport', async () => {
    const recording = recordingRefusals(answering(400, JSON.stringify(refusal)));
    const response = await recording.fetch('http://127.0.0.1/mcp', { method: 'POST' });
    expect(recording.refusal()).toEqual(refusal.error);
    expect(JSON.parse(await response.text())).toEqual(refusal);
  });

  it('records nothing for other answers or bodies', async () => {
    for (const [status, body, method] of [
      [200, JSON.stringify({ jsonrpc: '2.0', id: 0, result: {} }), 'POST'],
      [400, 'Bad Request: no session', 'POST'],
      [400, JSON.stringify(refusal), 'GET'],
    ] as const) {
      const recording = recordingRefusals(answering(status, body));
      await recording.fetch('http://127.0.0.1/mcp', { method });
      expect(recording.refusal()).toBeUndefined();
    }
  });
});

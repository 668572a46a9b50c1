import { describe, expect, it } from 'vitest';
import { classifyProbeAnswer, probeRequestId } from './era-probe.js';

/** How an answer to the `server/discover` probe decides the era (stdio reads it as it is; HTTP from a 200 or 400). */
describe('classifyProbeAnswer', () => {
  const refusal = (supported: unknown) => ({
    jsonrpc: '2.0',
    id: probeRequestId,
    error: { code: -32022, message: 'Unsupported protocol version', data: { supported, requested: '2026-07-28' } },
  });

  it('reads a -32022 refusal that lists 2026-07-28 as a 2026-07-28 server, without a discover result', () => {
    expect(classifyProbeAnswer(refusal(['2026-07-28']))).toEqual({ era: 'modern' });
  });

  it('reads any other error as a 2025 server', () => {
    expect(classifyProbeAnswer(refusal(['2099-01-01']))).toEqual({ era: 'legacy', reason: 'answered' });
    expect(classifyProbeAnswer(refusal('2026-07-28'))).toEqual({ era: 'legacy', reason: 'answered' });
    const notFound = { jsonrpc: '2.0', id: probeRequestId, error: { code: -32601, message: 'Method not found' } };
    expect(classifyProbeAnswer(notFound)).toEqual({ era: 'legacy', reason: 'answered' });
  });
});

import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { modernEnvelope } from '../test/stdio-entry-link.js';
import { claimsModernEnvelope, StdioEntryOpening } from './stdio-entry-opening.js';

const envelope = modernEnvelope({});
const request = (id: number, method: string, meta?: Record<string, unknown>): JSONRPCMessage => ({
  jsonrpc: '2.0',
  id,
  method,
  params: meta ? { _meta: meta } : {},
});

function phasesAfter(...messages: JSONRPCMessage[]) {
  const opening = new StdioEntryOpening();
  return messages.map((message) => {
    opening.take(message);
    return opening.phase;
  });
}

describe('StdioEntryOpening', () => {
  it('claims by the presence of the protocol-version key, whatever its value', () => {
    expect(claimsModernEnvelope({ _meta: envelope })).toBe(true);
    expect(claimsModernEnvelope({ _meta: { 'io.modelcontextprotocol/protocolVersion': 1 } })).toBe(true);
    expect(claimsModernEnvelope({ _meta: {} })).toBe(false);
    expect(claimsModernEnvelope(undefined)).toBe(false);
  });

  it('keeps the probe open past a request naming a revision the entry does not serve, so initialize pins 2025', () => {
    const unsupported = { ...envelope, 'io.modelcontextprotocol/protocolVersion': '2099-01-01' };
    expect(
      phasesAfter(
        request(1, 'server/discover', envelope),
        request(2, 'tools/list', unsupported),
        request(3, 'initialize'),
      ),
    ).toEqual(['probe', 'probe', 'legacy']);
  });

  it('refuses a claim-less request other than initialize in the probe and moves nothing for it', () => {
    const opening = new StdioEntryOpening();
    opening.take(request(1, 'server/discover', envelope));
    const claimless = request(2, 'tools/list');
    expect(opening.refusedInProbe(claimless)).toBe(true);
    opening.take(claimless);
    expect(opening.phase).toBe('probe');
    expect(opening.refusedInProbe(request(3, 'initialize'))).toBe(false);
  });

  it('pins 2026-07-28 on an enveloped request, 2025 on a claim-less first message', () => {
    expect(phasesAfter(request(1, 'tools/list', envelope), request(2, 'initialize'))).toEqual(['modern', 'modern']);
    expect(phasesAfter(request(1, 'tools/list'), request(2, 'tools/list', envelope))).toEqual(['legacy', 'legacy']);
  });
});

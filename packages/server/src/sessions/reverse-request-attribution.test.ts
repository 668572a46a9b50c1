import type { ClientCapabilities } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import {
  type AttributionContext,
  attributeReverseRequest,
  type InFlightOrigin,
  missingCapability,
} from './reverse-request-attribution.js';

interface TestSession {
  key: string;
  capabilities(): ClientCapabilities | undefined;
}
const session = (key: string, capabilities?: ClientCapabilities): TestSession => ({
  key,
  capabilities: () => capabilities,
});
const sampling = { sampling: {} };
const a = session('a', sampling);
const b = session('b', sampling);
const noSampling = session('c', {});
const call = (s: TestSession, name = 'ask'): InFlightOrigin<TestSession> => ({
  session: s,
  method: 'tools/call',
  name,
});

function context(overrides: Partial<AttributionContext<TestSession>> = {}): AttributionContext<TestSession> {
  return { sessions: () => [a, b], rootsOwner: () => undefined, causedBefore: () => false, ...overrides };
}
const base = { serverId: 'x', method: 'sampling/createMessage' as const, params: {} };

describe('attributeReverseRequest', () => {
  it('1: a request naming a task goes to the task owner, whoever else is calling', () => {
    const result = attributeReverseRequest({ ...base, inFlight: [call(b)], taskOwner: a }, context());
    expect(result).toMatchObject({ kind: 'session', session: a, exact: true });
  });

  it('2: an exact origin wins over the in-flight list', () => {
    const result = attributeReverseRequest({ ...base, inFlight: [call(b)], exactOrigin: call(a) }, context());
    expect(result).toMatchObject({ kind: 'session', session: a, exact: true });
  });

  it('3: one session calling → it, exactly', () => {
    const result = attributeReverseRequest({ ...base, inFlight: [call(a), call(a, 'other')] }, context());
    expect(result).toMatchObject({ kind: 'session', session: a, exact: true, origin: { name: 'ask' } });
  });

  it('4: several sessions → the most recent able one; a learned tool beats a more recent call', () => {
    const recentUnable = attributeReverseRequest({ ...base, inFlight: [call(noSampling), call(a)] }, context());
    expect(recentUnable).toMatchObject({ kind: 'session', session: a, exact: false });
    const learned = attributeReverseRequest(
      { ...base, inFlight: [call(b, 'slow'), call(a, 'ask')] },
      context({ causedBefore: (_server, name) => name === 'ask' }),
    );
    expect(learned).toMatchObject({ session: a });
    const recent = attributeReverseRequest({ ...base, inFlight: [call(b, 'slow'), call(a, 'ask')] }, context());
    expect(recent).toMatchObject({ session: b });
  });

  it('5: nothing in flight: sampling is refused with -32603; roots go to the roots owner or the only session', () => {
    const refused = attributeReverseRequest({ ...base, inFlight: [] }, context());
    expect(refused).toEqual({
      kind: 'none',
      code: -32603,
      message:
        "No client of Search MCP is waiting on a call to MCP server 'x'; sampling/createMessage needs the client whose call caused it",
    });
    const roots = { ...base, method: 'roots/list' as const, inFlight: [] };
    expect(attributeReverseRequest(roots, context({ rootsOwner: () => b }))).toMatchObject({ session: b });
    expect(attributeReverseRequest(roots, context({ sessions: () => [a] }))).toMatchObject({ session: a });
    expect(attributeReverseRequest(roots, context())).toMatchObject({ kind: 'none', code: -32603 });
  });
});

describe('missingCapability', () => {
  it('says what the SDK Client would say', () => {
    expect(missingCapability({}, 'sampling/createMessage', {})).toEqual({
      code: -32601,
      message: 'The client does not support sampling',
    });
    expect(missingCapability(sampling, 'sampling/createMessage', { tools: [] })?.code).toBe(-32601);
    expect(missingCapability({ sampling: { tools: {} } }, 'sampling/createMessage', { tools: [] })).toBeUndefined();
    expect(missingCapability({ elicitation: {} }, 'elicitation/create', {})).toBeUndefined();
    expect(missingCapability({ elicitation: {} }, 'elicitation/create', { mode: 'url' })?.code).toBe(-32602);
    expect(missingCapability({ elicitation: { url: {} } }, 'elicitation/create', { mode: 'url' })).toBeUndefined();
    expect(missingCapability({ elicitation: { url: {} } }, 'elicitation/create', {})?.code).toBe(-32602);
    expect(missingCapability(undefined, 'roots/list', {})?.code).toBe(-32601);
    expect(missingCapability({ roots: {} }, 'roots/list', {})).toBeUndefined();
  });
});

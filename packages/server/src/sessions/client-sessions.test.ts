import { Server } from '@modelcontextprotocol/server';
import { silentLogger } from '@search-mcp/shared';
import { describe, expect, it } from 'vitest';
import { PendingInputs } from '../input/pending-inputs.js';
import type { RequestExtra } from '../request-extra-types.js';
import type { ClientSession } from './client-session.js';
import { ClientSessions, type ReverseRequest } from './client-sessions.js';
import { modernClientEra } from '../eras/modern-client-era.js';

/** A 2026-07-28 session as one Streamable HTTP request makes it (its own server instance). */
function modernSession(key: string): ClientSession {
  return {
    key,
    server: new Server({ name: 'instance', version: '1' }),
    stateless: false,
    era: 'modern',
    caller: () => ({}),
    capabilities: () => undefined,
    canSee: () => true,
  };
}

const extra = {
  requestId: 1,
  signal: new AbortController().signal,
  era: 'modern',
  clientEra: modernClientEra,
} as unknown as RequestExtra;

function elicitation(origin: object): ReverseRequest {
  return {
    serverId: 'old',
    method: 'elicitation/create',
    backendRequestId: 7,
    params: { message: 'Again?', requestedSchema: { type: 'object', properties: {} } },
    inFlight: [{ origin, method: 'tools/call', name: 'ask' }],
    signal: new AbortController().signal,
  };
}

describe('ClientSessions routes a backend request of a 2026-07-28 call', () => {
  it('to the parked call even after the request instance that started it closed', async () => {
    const sessions = new ClientSessions({ logger: silentLogger });
    const session = modernSession('gone');
    sessions.add(session);
    const parked = new PendingInputs().create();
    parked.attach({
      signal: new AbortController().signal,
      clientCapabilities: { elicitation: { form: {} } },
      onProgress: undefined,
    });
    // The first request was answered input_required and its instance closed; the call waits for the retry.
    sessions.delete(session);
    const answer = sessions.route(elicitation({ session, extra, parked }));
    const outcome = await parked.outcome();
    expect(outcome).toMatchObject({
      kind: 'input',
      inputRequests: { 'elicitation-1': { method: 'elicitation/create' } },
    });
    parked.answer({ 'elicitation-1': { action: 'decline' } });
    expect(await answer).toEqual({ action: 'decline' });
  });

  it('refuses what the attached request did not declare, and a modern session without a parked call', async () => {
    const sessions = new ClientSessions({ logger: silentLogger });
    const session = modernSession('s');
    sessions.add(session);
    const parked = new PendingInputs().create();
    parked.attach({
      signal: new AbortController().signal,
      clientCapabilities: { sampling: {} },
      onProgress: undefined,
    });
    await expect(sessions.route(elicitation({ session, extra, parked }))).rejects.toMatchObject({
      code: -32601,
      message: 'The client does not support elicitation',
    });
    await expect(sessions.route(elicitation({ session, extra }))).rejects.toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { elicitation: {} } },
    });
  });
});

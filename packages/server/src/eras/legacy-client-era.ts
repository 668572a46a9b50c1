import type { ClientFacingEra } from './client-facing-era.js';

/** The 2025 revisions (2025-03-26 … 2025-11-25): an `initialize` handshake, a session, server-to-client requests. */
export const legacyClientEra: ClientFacingEra = {
  name: 'legacy',
  hasStreamOutsideRequests: (stateless) => !stateless,
  asksClientBy: 'push',
  declaresCapabilitiesPer: 'session',
  requestCapabilities: (_envelopeCapabilities, session) => session.getClientCapabilities(),
  logsBy: 'session',
  requestLogLevel: () => undefined,
  hintsCaches: false,
  tasksBy: 'call-param',
  namedByFirstRequest: false,
};

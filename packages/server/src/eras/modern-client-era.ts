import { LOG_LEVEL_META_KEY } from '@modelcontextprotocol/server';
import { isLoggingLevel, isRecord } from '@search-mcp/shared';
import type { ClientCapabilities } from '@modelcontextprotocol/server';
import type { ClientFacingEra } from './client-facing-era.js';

/**
 * 2026-07-28: no handshake, every request carries its envelope (protocol version, client info, capabilities, log
 * level); no server-to-client requests (input is asked for by `input_required`); tasks are an extension.
 */
export const modernClientEra: ClientFacingEra = {
  name: 'modern',
  hasStreamOutsideRequests: () => true,
  asksClientBy: 'park',
  declaresCapabilitiesPer: 'request',
  requestCapabilities: (envelopeCapabilities) =>
    isRecord(envelopeCapabilities) ? (envelopeCapabilities as ClientCapabilities) : undefined,
  logsBy: 'request',
  requestLogLevel: (envelope) => {
    const level = envelope?.[LOG_LEVEL_META_KEY];
    return isLoggingLevel(level) ? level : undefined;
  },
  hintsCaches: true,
  tasksBy: 'extension',
  namedByFirstRequest: true,
};

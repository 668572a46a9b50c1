import { CLIENT_INFO_META_KEY, PROTOCOL_VERSION_META_KEY } from '@modelcontextprotocol/server';
import { isRecord } from '@search-mcp/shared';

/** Who connected, in which revision: told once per server instance. */
export interface ConnectedClient {
  era: 'legacy' | 'modern';
  protocolVersion: string | undefined;
  name: string | undefined;
  version: string | undefined;
}

/** A 2026-07-28 client as its request's envelope names it (the revision has no `initialize`). */
export function modernClientOf(envelope: Record<string, unknown> | undefined): ConnectedClient {
  const info = isRecord(envelope?.[CLIENT_INFO_META_KEY]) ? envelope[CLIENT_INFO_META_KEY] : {};
  const version = envelope?.[PROTOCOL_VERSION_META_KEY];
  return {
    era: 'modern',
    protocolVersion: typeof version === 'string' ? version : undefined,
    name: typeof info.name === 'string' ? info.name : undefined,
    version: typeof info.version === 'string' ? info.version : undefined,
  };
}

import {
  listsTasksExtension,
  type SecretRedactor,
  type ServerFeature,
  type ServerOAuthStatus,
  type ServerState,
  type ServerStatus,
  type ServerTransportKind,
  type McpServerCapabilities,
} from '@search-mcp/shared';
import type { BackendPeer } from './backend-peer.js';

/** What a connection knows of itself now. */
export interface ConnectionFacts {
  id: string;
  state: ServerState;
  toolCount: number;
  restarts: number;
  transport: ServerTransportKind | undefined;
  pid: number | undefined;
  connectedAt: Date | undefined;
  connectMs: number | undefined;
  lastError: string | undefined;
  /** The client while running. */
  client: BackendPeer | undefined;
  redactor: SecretRedactor;
  /** A remote server's OAuth state, when OAuth applies to it. */
  oauth: ServerOAuthStatus | undefined;
}

/** `ServerStatus` from a connection's facts: the pid while it runs or starts, the backend's own facts while running. */
export function describeStatus(facts: ConnectionFacts): ServerStatus {
  const { state, client } = facts;
  const status: ServerStatus = { id: facts.id, state, toolCount: facts.toolCount, restarts: facts.restarts };
  if (facts.transport) status.transport = facts.transport;
  if (facts.pid !== undefined && (state === 'running' || state === 'starting')) status.pid = facts.pid;
  if (facts.connectedAt && state === 'running') status.connectedAt = facts.connectedAt.toISOString();
  if (facts.connectMs !== undefined) status.connectMs = facts.connectMs;
  if (facts.lastError !== undefined) status.lastError = facts.lastError;
  const serverInfo = client?.getServerVersion();
  if (serverInfo) status.serverInfo = facts.redactor.redactDeep({ name: serverInfo.name, version: serverInfo.version });
  if (client?.protocolVersion !== undefined) status.protocolVersion = client.protocolVersion;
  if (client) status.protocolEra = client.protocolEra;
  if (client) status.features = featuresOf(client.getServerCapabilities());
  if (facts.oauth) status.oauth = facts.oauth;
  return status;
}

const featureCapabilities: ReadonlyArray<[ServerFeature, keyof McpServerCapabilities]> = [
  ['tools', 'tools'],
  ['resources', 'resources'],
  ['prompts', 'prompts'],
  ['completions', 'completions'],
  ['logging', 'logging'],
  ['tasks', 'tasks'],
];

/** The features a backend announced (`initialize`, `server/discover`), for `ServerStatus.features` and `doctor`. */
export function featuresOf(capabilities: McpServerCapabilities | undefined): ServerFeature[] {
  if (!capabilities) return [];
  // A 2026-07-28 backend offers tasks as an extension (bridged to the same task API).
  const offers = (key: keyof McpServerCapabilities) =>
    capabilities[key] !== undefined || (key === 'tasks' && listsTasksExtension(capabilities));
  return featureCapabilities.filter(([, key]) => offers(key)).map(([feature]) => feature);
}

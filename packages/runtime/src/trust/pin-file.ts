/**
 * The content of `<state folder>/pins.json` (docs/trust.md, "Pinning and quarantine") and the changes made to it:
 * per server id, each tool's pin (hash and definition, so a change can be shown field by field) and what waits
 * for approval. Pure functions: the store applies them to its copy and, under its write queue, to the file's.
 */
import { ApprovalChangedError, type PinObservation, type ServerPins, type ToolPin } from '@search-mcp/catalog';

export interface PinFile {
  version: 1;
  servers: Record<string, ServerPins>;
}

export function emptyPinFile(): PinFile {
  return { version: 1, servers: {} };
}

/** Parses the file's text; throws with the reason when it is not a pin file. */
export function parsePinFile(text: string): PinFile {
  const data: unknown = JSON.parse(text);
  if (!isRecord(data) || data.version !== 1 || !isRecord(data.servers)) {
    throw new Error('not a Search MCP pin file (expected {"version": 1, "servers": {…}})');
  }
  const servers: Record<string, ServerPins> = {};
  for (const [serverId, entry] of Object.entries(data.servers)) {
    if (!isRecord(entry)) continue;
    servers[serverId] = {
      tools: isRecord(entry.tools) ? (entry.tools as ServerPins['tools']) : {},
      pending: isRecord(entry.pending) ? (entry.pending as ServerPins['pending']) : {},
    };
  }
  return { version: 1, servers };
}

/** Compact: the file holds every definition (for the diffs), and a start reads it whole. */
export function serializePinFile(file: PinFile): string {
  return `${JSON.stringify(file)}\n`;
}

/** Own entries only: a server id comes from a request and must not find `Object.prototype`'s members. */
export function serverPins(file: PinFile, serverId: string): ServerPins | undefined {
  return Object.hasOwn(file.servers, serverId) ? file.servers[serverId] : undefined;
}

/** Records what a listing found. A tool pinned meanwhile (by another process) keeps its pin. */
export function applyObservation(file: PinFile, serverId: string, observation: PinObservation): void {
  const server = serverPins(file, serverId) ?? { tools: {}, pending: {} };
  for (const [name, pin] of Object.entries(observation.pin ?? {})) {
    if (!Object.hasOwn(server.tools, name)) server.tools[name] = pin;
  }
  for (const [name, pending] of Object.entries(observation.hold ?? {})) {
    const pin = Object.hasOwn(server.tools, name) ? server.tools[name] : undefined;
    // Approved meanwhile: nothing waits any more.
    if (pin?.hash !== pending.hash) server.pending[name] = pending;
  }
  for (const name of observation.release ?? []) delete server.pending[name];
  file.servers[serverId] = server;
}

/**
 * Pins what waits for the server (one tool, or all); returns the names approved. With `expected` (the hashes that
 * were shown), pins nothing and throws `ApprovalChangedError` when any tool it would pin waits with another hash or
 * was not shown at all.
 */
export function approvePending(
  file: PinFile,
  serverId: string,
  toolName: string | undefined,
  now: Date,
  expected?: Readonly<Record<string, string>>,
): string[] {
  const server = serverPins(file, serverId);
  if (!server) return [];
  const names = Object.keys(server.pending).filter((name) => toolName === undefined || name === toolName);
  if (expected) {
    const changed = names.filter(
      (name) => !Object.hasOwn(expected, name) || expected[name] !== server.pending[name]?.hash,
    );
    if (changed.length > 0) throw new ApprovalChangedError(changed.sort().map((name) => `${serverId}:${name}`));
  }
  for (const name of names) {
    const pending = server.pending[name];
    if (!pending) continue;
    const pin: ToolPin = { hash: pending.hash, definition: pending.definition, pinnedAt: now.toISOString() };
    server.tools[name] = pin;
    delete server.pending[name];
  }
  return names.sort();
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

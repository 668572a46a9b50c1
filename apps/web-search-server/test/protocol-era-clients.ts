/**
 * Real MCP clients of both protocol eras behind one small surface, for era-matrix tests (issue 10). Each kind is a
 * real SDK client, not a replay: the 1.x SDK's `Client` (2025 era only), and the 2.x SDK's `Client` in its three
 * negotiation modes (`legacy`: the plain 2025 handshake; `auto`: `server/discover` first, 2025 fallback; pinned
 * 2026-07-28: no handshake, version, client info and capabilities in every request's `_meta`).
 *
 * `connectProtocolEraClient(kind, target)` starts a stdio server (or reaches a Streamable HTTP endpoint) and reports
 * what the client negotiated: `era` and `protocolVersion`. The 2.x client says it itself; the 1.x client has no
 * getter, so its transport is watched for the `initialize` answer (public `Transport` interface, no private fields).
 *
 * Used by apps/web-search-server/test; the full matrix (client era × backend era × transport, through search-mcp)
 * reuses it. For exact 2025 revisions other than the newest, and for one bare stateless 2026 request, see
 * `raw-stdio-peer.ts` (the SDK clients always offer their newest revision).
 */
import { Client as Sdk2Client } from '@modelcontextprotocol/client';
import { StreamableHTTPClientTransport as Sdk2HttpTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport as Sdk2StdioTransport } from '@modelcontextprotocol/client/stdio';
import { Client as Sdk1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as Sdk1StdioTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as Sdk1HttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport as Sdk1Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { isRecord } from '@search-mcp/shared';
import { collectStderr, type StderrCollector } from './stderr-collector.js';

export type ProtocolEra = 'legacy' | 'modern';

/** The newest 2025-era revision (what every 2025-era SDK client offers) and the 2026 revision. */
export const latestLegacyProtocolVersion = '2025-11-25';
export const modernProtocolVersion = '2026-07-28';

export type ProtocolEraClientKind = 'sdk1' | 'sdk2-legacy' | 'sdk2-auto' | 'sdk2-2026';

export interface ProtocolEraClientDescription {
  kind: ProtocolEraClientKind;
  /** For test names. */
  label: string;
  /** The era it ends up in against a server that speaks both. */
  eraWithBothEraServer: ProtocolEra;
  /** The era it ends up in against a 2025-only server (`undefined`: it cannot connect, by design). */
  eraWithLegacyServer: ProtocolEra | undefined;
}

export const protocolEraClients: readonly ProtocolEraClientDescription[] = [
  {
    kind: 'sdk1',
    label: '@modelcontextprotocol/sdk 1.x Client (2025-11-25 handshake)',
    eraWithBothEraServer: 'legacy',
    eraWithLegacyServer: 'legacy',
  },
  {
    kind: 'sdk2-legacy',
    label: '@modelcontextprotocol/client 2.x, versionNegotiation legacy',
    eraWithBothEraServer: 'legacy',
    eraWithLegacyServer: 'legacy',
  },
  {
    kind: 'sdk2-auto',
    label: '@modelcontextprotocol/client 2.x, versionNegotiation auto',
    eraWithBothEraServer: 'modern',
    eraWithLegacyServer: 'legacy',
  },
  {
    kind: 'sdk2-2026',
    label: '@modelcontextprotocol/client 2.x, pinned to 2026-07-28',
    eraWithBothEraServer: 'modern',
    eraWithLegacyServer: undefined,
  },
];

export type ProtocolEraTarget =
  | { transport: 'stdio'; command: string; args?: string[]; env?: Record<string, string>; cwd?: string }
  | { transport: 'http'; url: URL; headers?: Record<string, string> };

export interface ListedTool {
  name: string;
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  annotations?: Record<string, unknown>;
  [key: string]: unknown;
}

export interface ListedTools {
  tools: ListedTool[];
  /** 2026-07-28 cache fields; absent on 2025-era answers. */
  ttlMs?: number;
  cacheScope?: string;
  [key: string]: unknown;
}

export interface ToolCallOutcome {
  content: Array<{ type: string; text?: string; [key: string]: unknown }>;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  [key: string]: unknown;
}

export interface ToolCallOptions {
  onprogress?: (progress: { progress: number; total?: number; message?: string }) => void;
  signal?: AbortSignal;
  timeout?: number;
}

export interface ProtocolEraSession {
  kind: ProtocolEraClientKind;
  era: ProtocolEra;
  protocolVersion: string;
  serverInfo: { name: string; version: string } | undefined;
  /** The server's stderr (stdio targets; empty for HTTP): the server side reports its negotiated version there. */
  stderr: StderrCollector;
  /** The stdio server's process id (stdio targets). */
  pid: number | undefined;
  listTools(): Promise<ListedTools>;
  callTool(name: string, args: Record<string, unknown>, options?: ToolCallOptions): Promise<ToolCallOutcome>;
  /** Errors the client reported outside a request (a non-protocol line on stdout surfaces here). */
  transportErrors: Error[];
  close(): Promise<void>;
}

export interface ConnectProtocolEraClientOptions {
  clientName?: string;
  /** Time limit of the connect (handshake or discovery), generous for loaded CI machines. */
  connectTimeoutMs?: number;
}

const defaultConnectTimeoutMs = 30_000;

/** Connects one real client of `kind` to `target` and reports what it negotiated. */
export async function connectProtocolEraClient(
  kind: ProtocolEraClientKind,
  target: ProtocolEraTarget,
  options: ConnectProtocolEraClientOptions = {},
): Promise<ProtocolEraSession> {
  return kind === 'sdk1' ? connectSdk1(target, options) : connectSdk2(kind, target, options);
}

/** Child environment: the caller's PATH and HOME (so `node`/`npx` resolve) plus the target's variables. */
function childEnvironment(env: Record<string, string> | undefined): Record<string, string> {
  const base: Record<string, string> = {};
  for (const name of ['PATH', 'HOME', 'SystemRoot', 'TEMP', 'TMP']) {
    const value = process.env[name];
    if (value !== undefined) base[name] = value;
  }
  return { ...base, ...env };
}

function implementation(value: unknown): { name: string; version: string } | undefined {
  return isRecord(value) && typeof value.name === 'string' && typeof value.version === 'string'
    ? { name: value.name, version: value.version }
    : undefined;
}

async function connectSdk1(
  target: ProtocolEraTarget,
  options: ConnectProtocolEraClientOptions,
): Promise<ProtocolEraSession> {
  let stderr = collectStderr(undefined);
  let pid: () => number | undefined = () => undefined;
  let transport: Sdk1Transport;
  if (target.transport === 'stdio') {
    const stdio = new Sdk1StdioTransport({
      command: target.command,
      args: target.args ?? [],
      env: childEnvironment(target.env),
      ...(target.cwd === undefined ? {} : { cwd: target.cwd }),
      stderr: 'pipe',
    });
    stderr = collectStderr(stdio.stderr);
    pid = () => stdio.pid ?? undefined;
    transport = stdio;
  } else {
    transport = new Sdk1HttpTransport(target.url, { requestInit: { headers: target.headers ?? {} } });
  }
  // The 1.x Client keeps the negotiated version to itself: read it off the initialize answer on the wire.
  let answeredVersion: string | undefined;
  const start = transport.start.bind(transport);
  transport.start = async () => {
    const deliver = transport.onmessage;
    transport.onmessage = (message, extra) => {
      if (answeredVersion === undefined && 'result' in message && isRecord(message.result)) {
        const version = message.result.protocolVersion;
        if (typeof version === 'string') answeredVersion = version;
      }
      deliver?.(message, extra);
    };
    await start();
  };
  const client = new Sdk1Client({ name: options.clientName ?? 'era-matrix-sdk1', version: '1.0.0' });
  const transportErrors: Error[] = [];
  client.onerror = (error) => transportErrors.push(error);
  await client.connect(transport, { timeout: options.connectTimeoutMs ?? defaultConnectTimeoutMs });
  if (answeredVersion === undefined) throw new Error('the 1.x client connected without an initialize answer');
  return {
    kind: 'sdk1',
    era: 'legacy',
    protocolVersion: answeredVersion,
    serverInfo: implementation(client.getServerVersion()),
    stderr,
    pid: pid(),
    transportErrors,
    listTools: async () => (await client.listTools()) as ListedTools,
    callTool: async (name, args, callOptions = {}) =>
      (await client.callTool({ name, arguments: args }, undefined, callOptions)) as ToolCallOutcome,
    close: () => client.close(),
  };
}

async function connectSdk2(
  kind: Exclude<ProtocolEraClientKind, 'sdk1'>,
  target: ProtocolEraTarget,
  options: ConnectProtocolEraClientOptions,
): Promise<ProtocolEraSession> {
  let stderr = collectStderr(undefined);
  let pid: () => number | undefined = () => undefined;
  let transport: Sdk2StdioTransport | Sdk2HttpTransport;
  if (target.transport === 'stdio') {
    const stdio = new Sdk2StdioTransport({
      command: target.command,
      args: target.args ?? [],
      env: childEnvironment(target.env),
      ...(target.cwd === undefined ? {} : { cwd: target.cwd }),
      stderr: 'pipe',
    });
    stderr = collectStderr(stdio.stderr);
    pid = () => stdio.pid ?? undefined;
    transport = stdio;
  } else {
    transport = new Sdk2HttpTransport(target.url, { requestInit: { headers: target.headers ?? {} } });
  }
  const mode = kind === 'sdk2-legacy' ? 'legacy' : kind === 'sdk2-auto' ? 'auto' : { pin: modernProtocolVersion };
  const client = new Sdk2Client(
    { name: options.clientName ?? `era-matrix-${kind}`, version: '2.0.0' },
    { versionNegotiation: { mode } },
  );
  const transportErrors: Error[] = [];
  client.onerror = (error) => transportErrors.push(error);
  await client.connect(transport, { timeout: options.connectTimeoutMs ?? defaultConnectTimeoutMs });
  const era = client.getProtocolEra();
  const protocolVersion = client.getNegotiatedProtocolVersion();
  if (era === undefined || protocolVersion === undefined) throw new Error(`the ${kind} client reports no era`);
  return {
    kind,
    era,
    protocolVersion,
    serverInfo: implementation(client.getServerVersion()),
    stderr,
    pid: pid(),
    transportErrors,
    // The response cache would answer a second listTools without a round trip; the matrix wants the wire.
    listTools: async () => (await client.listTools(undefined, { cacheMode: 'bypass' })) as ListedTools,
    callTool: async (name, args, callOptions = {}) =>
      (await client.callTool({ name, arguments: args }, callOptions)) as ToolCallOutcome,
    close: () => client.close(),
  };
}

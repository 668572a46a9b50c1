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
 * With `handlers`, the client answers `elicitation/create` and `sampling/createMessage` as a client app would (and
 * declares those capabilities): a 2025 connection gets them as requests from the server, a 2026-07-28 one inside
 * `input_required` results, which the 2.x client fulfils through the same handlers and retries (`asked` records
 * both, `received` the raw messages, so a test can tell which way the question came).
 *
 * Used by the era tests of apps/web-search-server, and by the full matrix of apps/stdio-server and apps/http-server
 * (client era × backend era × transport, through search-mcp). For exact 2025 revisions other than the newest, and for one bare stateless 2026 request, see
 * `raw-stdio-peer.ts` (the SDK clients always offer their newest revision).
 */
import { Client as Sdk2Client } from '@modelcontextprotocol/client';
import { StreamableHTTPClientTransport as Sdk2HttpTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport as Sdk2StdioTransport } from '@modelcontextprotocol/client/stdio';
import { Client as Sdk1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as Sdk1StdioTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as Sdk1HttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport as Sdk1Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { CreateMessageRequestSchema, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { isRecord } from '@search-mcp/shared';
import { z } from 'zod';
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

export interface RawRequestOptions {
  onprogress?: (progress: { progress: number; total?: number; message?: string }) => void;
  signal?: AbortSignal;
  timeout?: number;
}

/** What a user answers to a form elicitation. */
export type ElicitationAnswer =
  | { action: 'accept'; content: Record<string, string | number | boolean | string[]> }
  | { action: 'decline' }
  | { action: 'cancel' };

/** What a model answers to a sampling request. */
export type SamplingAnswer = {
  role: 'assistant';
  model: string;
  content: { type: 'text'; text: string };
  stopReason?: string;
};

/** How the client answers what a server asks of it; each one given also declares its capability. */
export interface ProtocolEraClientHandlers {
  elicitation?: (params: Record<string, unknown>) => ElicitationAnswer | Promise<ElicitationAnswer>;
  sampling?: (params: Record<string, unknown>) => SamplingAnswer | Promise<SamplingAnswer>;
}

/**
 * Accepts a form elicitation the way a user filling every field would: strings with `text`, numbers with 42,
 * booleans with true (the fields the server asked for, whatever they are named).
 */
export function fillForm(params: Record<string, unknown>, text: string): ElicitationAnswer {
  const schema = isRecord(params.requestedSchema) ? params.requestedSchema : {};
  const properties = isRecord(schema.properties) ? schema.properties : {};
  const content: Record<string, string | number | boolean> = {};
  for (const [key, property] of Object.entries(properties)) {
    const type = isRecord(property) ? property.type : undefined;
    content[key] = type === 'number' || type === 'integer' ? 42 : type === 'boolean' ? true : text;
  }
  return { action: 'accept', content };
}

export interface ReceivedNotification {
  method: string;
  params: Record<string, unknown>;
}

/** An open 2026-07-28 `subscriptions/listen` stream. */
export interface ListenStream {
  /** What the server agreed to send. */
  honoredFilter: Record<string, unknown>;
  close(): Promise<void>;
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
  /** Any request, its result unchecked (no cache, no output validation): what the server sent. */
  request(
    method: string,
    params: Record<string, unknown>,
    options?: RawRequestOptions,
  ): Promise<Record<string, unknown>>;
  /** What the server asked of this client (`elicitation/create`, `sampling/createMessage`), in order. */
  asked: Array<{ method: string; params: Record<string, unknown> }>;
  /** Every JSON-RPC message the transport delivered to the client, in order (the wire, before the SDK). */
  received: Array<Record<string, unknown>>;
  /** Notifications from the server (progress and list_changed included), in order. */
  notifications: ReceivedNotification[];
  /** Resolves with the first notification (received before or after the call) that `matches`; bounded. */
  waitForNotification(
    matches: (notification: ReceivedNotification) => boolean,
    timeoutMs?: number,
  ): Promise<ReceivedNotification>;
  /** Opens a `subscriptions/listen` stream (a 2.x client on a 2026-07-28 connection only). */
  listen(filter: Record<string, unknown>): Promise<ListenStream>;
  close(): Promise<void>;
}

export interface ConnectProtocolEraClientOptions {
  clientName?: string;
  /** Time limit of the connect (handshake or discovery), generous for loaded CI machines. */
  connectTimeoutMs?: number;
  /** Answers to server requests; none: the client declares no elicitation or sampling capability. */
  handlers?: ProtocolEraClientHandlers;
}

const defaultConnectTimeoutMs = 30_000;
const defaultRequestTimeoutMs = 60_000;
const Loose = z.looseObject({});

function capabilitiesFor(handlers: ProtocolEraClientHandlers | undefined): Record<string, unknown> {
  return {
    ...(handlers?.elicitation ? { elicitation: { form: {} } } : {}),
    ...(handlers?.sampling ? { sampling: {} } : {}),
  };
}

/** What both clients share: the wire record, the notification log and its waiters. */
function observe() {
  const received: Array<Record<string, unknown>> = [];
  const notifications: ReceivedNotification[] = [];
  const asked: Array<{ method: string; params: Record<string, unknown> }> = [];
  const waiters = new Set<() => void>();
  /**
   * Records every message the transport hands to whoever listens (the SDK sets `onmessage` more than once: a 2.x
   * negotiated connect probes first), through the public `onmessage` property only.
   */
  const watch = (transport: { onmessage?: unknown }) => {
    let current: ((message: Record<string, unknown>, extra?: unknown) => void) | undefined;
    Object.defineProperty(transport, 'onmessage', {
      configurable: true,
      get: () => current,
      set: (handler: ((message: Record<string, unknown>, extra?: unknown) => void) | undefined) => {
        current =
          handler === undefined
            ? undefined
            : (message, extra) => {
                received.push(message);
                handler(message, extra);
              };
      },
    });
  };
  const note = (notification: ReceivedNotification) => {
    notifications.push(notification);
    for (const wake of [...waiters]) wake();
  };
  const waitForNotification = (matches: (notification: ReceivedNotification) => boolean, timeoutMs = 30_000) =>
    new Promise<ReceivedNotification>((resolve, reject) => {
      const check = () => {
        const found = notifications.find(matches);
        if (found === undefined) return;
        waiters.delete(check);
        clearTimeout(timer);
        resolve(found);
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        const seen = notifications.map((notification) => notification.method).join(', ') || 'none';
        reject(new Error(`no matching notification within ${timeoutMs} ms (received: ${seen})`));
      }, timeoutMs);
      waiters.add(check);
      check();
    });
  return { received, notifications, asked, watch, note, waitForNotification };
}

function paramsOf(value: unknown): Record<string, unknown> {
  return isRecord(value) && isRecord(value.params) ? value.params : {};
}

/** Connects one real client of `kind` to `target` and reports what it negotiated. */
export async function connectProtocolEraClient(
  kind: ProtocolEraClientKind,
  target: ProtocolEraTarget,
  options: ConnectProtocolEraClientOptions = {},
): Promise<ProtocolEraSession> {
  return kind === 'sdk1' ? connectSdk1(target, options) : connectSdk2(kind, target, options);
}

/**
 * Child environment: the caller's PATH and HOME (so `node`/`npx` resolve), the test run's switches that keep a Search
 * MCP child from reading or writing the state folder's pins and kept tool lists (set by the shared vitest config: a
 * child of one test must not see what an earlier one kept), plus the target's variables.
 */
function childEnvironment(env: Record<string, string> | undefined): Record<string, string> {
  const base: Record<string, string> = {};
  for (const name of ['PATH', 'HOME', 'SystemRoot', 'TEMP', 'TMP', 'SEARCH_MCP_PINNING', 'SEARCH_MCP_TOOL_CACHE']) {
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
  const observed = observe();
  observed.watch(transport);
  const client = new Sdk1Client(
    { name: options.clientName ?? 'era-matrix-sdk1', version: '1.0.0' },
    { capabilities: capabilitiesFor(options.handlers) },
  );
  const { elicitation, sampling } = options.handlers ?? {};
  if (elicitation) {
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      observed.asked.push({ method: request.method, params: request.params as Record<string, unknown> });
      return elicitation(request.params as Record<string, unknown>);
    });
  }
  if (sampling) {
    client.setRequestHandler(CreateMessageRequestSchema, async (request) => {
      observed.asked.push({ method: request.method, params: request.params as Record<string, unknown> });
      return sampling(request.params as Record<string, unknown>);
    });
  }
  client.fallbackNotificationHandler = async (notification) =>
    observed.note({ method: notification.method, params: paramsOf(notification) });
  const transportErrors: Error[] = [];
  client.onerror = (error) => transportErrors.push(error);
  await client.connect(transport, { timeout: options.connectTimeoutMs ?? defaultConnectTimeoutMs });
  // The 1.x Client keeps the negotiated version to itself: read it off the initialize answer on the wire.
  const answeredVersion = observed.received
    .map((message) => (isRecord(message.result) ? message.result.protocolVersion : undefined))
    .find((version): version is string => typeof version === 'string');
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
    request: async (method, params, requestOptions = {}) =>
      (await client.request({ method, params } as never, Loose, {
        timeout: defaultRequestTimeoutMs,
        ...requestOptions,
      })) as Record<string, unknown>,
    asked: observed.asked,
    received: observed.received,
    notifications: observed.notifications,
    waitForNotification: observed.waitForNotification,
    listen: () => Promise.reject(new Error('the 1.x client speaks 2025 only: it has no subscriptions/listen')),
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
  const observed = observe();
  observed.watch(transport);
  const mode = kind === 'sdk2-legacy' ? 'legacy' : kind === 'sdk2-auto' ? 'auto' : { pin: modernProtocolVersion };
  const client = new Sdk2Client(
    { name: options.clientName ?? `era-matrix-${kind}`, version: '2.0.0' },
    { versionNegotiation: { mode }, capabilities: capabilitiesFor(options.handlers) },
  );
  // One handler per kind serves both eras: a 2025 server's request, or a 2026 `input_required` the client fulfils.
  const { elicitation, sampling } = options.handlers ?? {};
  if (elicitation) {
    client.setRequestHandler('elicitation/create', async (request) => {
      observed.asked.push({ method: request.method, params: request.params as Record<string, unknown> });
      return elicitation(request.params as Record<string, unknown>);
    });
  }
  if (sampling) {
    client.setRequestHandler('sampling/createMessage', async (request) => {
      observed.asked.push({ method: request.method, params: request.params as Record<string, unknown> });
      return sampling(request.params as Record<string, unknown>);
    });
  }
  client.fallbackNotificationHandler = async (notification) =>
    observed.note({ method: notification.method, params: paramsOf(notification) });
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
    // A loose result schema: the wire's answer, not the client's cache or its own result checks.
    request: async (method, params, requestOptions = {}) =>
      (await client.request({ method, params } as never, Loose, {
        timeout: defaultRequestTimeoutMs,
        ...requestOptions,
      })) as Record<string, unknown>,
    asked: observed.asked,
    received: observed.received,
    notifications: observed.notifications,
    waitForNotification: observed.waitForNotification,
    listen: async (filter) => {
      const subscription = await client.listen(filter, { timeout: defaultRequestTimeoutMs });
      return {
        honoredFilter: subscription.honoredFilter as Record<string, unknown>,
        close: () => subscription.close(),
      };
    },
    close: () => client.close(),
  };
}

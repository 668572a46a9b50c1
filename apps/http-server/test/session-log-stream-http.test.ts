/**
 * A backend's log message to a 2025 Streamable HTTP session during one of its calls goes on that call's response
 * stream (its POST's SSE stream), like a backend's request to the client does: the session's own GET stream, which the
 * client opens by itself some time after the handshake, may not be open yet, and a message sent there before is lost.
 * A raw fetch client against the built `search-mcp-http`, so the test decides when (and whether) a GET stream exists;
 * the backend is the 2025 feature fixture (`log {level, count, message}` logs, then answers; `touch {uri}` sends
 * `resources/updated`).
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fixtureServerPath } from '@search-mcp/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliProcess, startCli } from './cli-process.js';
import { temporaryDirectory } from './http-test-support.js';

const featureServer = fixtureServerPath('feature-server.mjs');
const stepTimeoutMs = 60_000;
const legacyVersion = '2025-06-18';

type Message = Record<string, unknown> & { id?: number; method?: string; params?: Record<string, unknown> };

let directory: { path: string; remove: () => Promise<void> };
let app: CliProcess;

beforeAll(async () => {
  directory = await temporaryDirectory();
  const configFile = join(directory.path, 'config.json');
  await writeFile(
    configFile,
    JSON.stringify({
      mcpServers: {
        feature: { command: process.execPath, args: [featureServer, '--name', 'feature', '--resources', '1'] },
      },
      auth: { allowAnonymous: true },
    }),
  );
  app = await startCli(['--config', configFile, '--port', '0', '--mode', 'proxy']);
}, stepTimeoutMs);

afterAll(async () => {
  app?.child.kill('SIGTERM');
  await app?.exited;
  await directory?.remove();
});

/** Reads Server-Sent Events of a response body, one JSON-RPC message per `data:` event. */
class EventReader {
  private readonly reader: ReadableStreamDefaultReader<Uint8Array>;
  private readonly decoder = new TextDecoder();
  private buffer = '';

  constructor(body: ReadableStream<Uint8Array>) {
    this.reader = body.getReader();
  }

  /** The next message; undefined when the stream ended. */
  async next(): Promise<Message | undefined> {
    for (;;) {
      const end = this.buffer.indexOf('\n\n');
      if (end >= 0) {
        const event = this.buffer.slice(0, end);
        this.buffer = this.buffer.slice(end + 2);
        const data = event
          .split('\n')
          .filter((line) => line.startsWith('data:'))
          .map((line) => line.slice(5).trimStart())
          .join('\n');
        if (data !== '') return JSON.parse(data) as Message;
        continue;
      }
      const { done, value } = await this.reader.read();
      if (done) return undefined;
      this.buffer += this.decoder.decode(value, { stream: true }).replaceAll('\r\n', '\n');
    }
  }

  /** Every message up to and including the first that `last` accepts. */
  async until(last: (message: Message) => boolean): Promise<Message[]> {
    const messages: Message[] = [];
    for (;;) {
      const message = await this.next();
      if (!message) throw new Error(`the stream ended before the awaited message: ${JSON.stringify(messages)}`);
      messages.push(message);
      if (last(message)) return messages;
    }
  }

  async cancel(): Promise<void> {
    await this.reader.cancel();
  }
}

/** A 2025 client of raw HTTP requests: one session, a POST per message, a GET stream only when asked for. */
class RawSession {
  private nextId = 1;

  private constructor(
    private readonly endpoint: string,
    readonly sessionId: string,
  ) {}

  static async open(endpoint: string): Promise<RawSession> {
    const response = await fetch(endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: { protocolVersion: legacyVersion, capabilities: {}, clientInfo: { name: 'raw-2025', version: '1' } },
      }),
    });
    const sessionId = response.headers.get('mcp-session-id');
    if (!response.ok || sessionId === null) throw new Error(`initialize failed: ${response.status}`);
    await response.body?.cancel();
    const session = new RawSession(endpoint, sessionId);
    const initialized = await session.post({ jsonrpc: '2.0', method: 'notifications/initialized' });
    expect(initialized.status).toBe(202);
    await initialized.body?.cancel();
    return session;
  }

  private post(message: object): Promise<Response> {
    return fetch(this.endpoint, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-session-id': this.sessionId,
        'mcp-protocol-version': legacyVersion,
      },
      body: JSON.stringify(message),
    });
  }

  /** A request: every message of its response stream, up to and including its answer. */
  async request(method: string, params: Record<string, unknown>): Promise<Message[]> {
    const id = this.nextId++;
    const response = await this.post({ jsonrpc: '2.0', id, method, params });
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    if (!response.body) throw new Error('no response body');
    const events = new EventReader(response.body);
    const messages = await events.until((message) => message.id === id);
    await events.cancel();
    return messages;
  }

  /** The session's own stream (the GET stream a client opens on its own), open when this resolves. */
  async listen(): Promise<EventReader> {
    const response = await fetch(this.endpoint, {
      headers: { accept: 'text/event-stream', 'mcp-session-id': this.sessionId, 'mcp-protocol-version': legacyVersion },
    });
    expect(response.status).toBe(200);
    if (!response.body) throw new Error('no response body');
    return new EventReader(response.body);
  }

  async close(): Promise<void> {
    await fetch(this.endpoint, { method: 'DELETE', headers: { 'mcp-session-id': this.sessionId } });
  }
}

const logTwice = { name: 'feature__log', arguments: { level: 'error', count: 2, message: 'backend says hi' } };
const logData = (messages: Message[]) =>
  messages.filter((message) => message.method === 'notifications/message').map((message) => message.params?.data);

describe('a backend log message during a 2025 HTTP session call', () => {
  it('goes on the call stream when the session has no GET stream open', { timeout: stepTimeoutMs }, async () => {
    const session = await RawSession.open(`${app.url}/mcp`);
    try {
      const level = await session.request('logging/setLevel', { level: 'debug' });
      expect(level.at(-1)).toMatchObject({ result: {} });
      const call = await session.request('tools/call', logTwice);
      // Both messages before the answer, on the one stream this client reads.
      expect(logData(call)).toEqual(['backend says hi', 'backend says hi']);
      expect(call.at(-1)).toMatchObject({ result: { content: [{ type: 'text' }] } });
      expect(call.at(-1)?.result).not.toHaveProperty('isError', true);
      // Only the session's messages at its level: a level above the backend's message silences it.
      await session.request('logging/setLevel', { level: 'critical' });
      expect(logData(await session.request('tools/call', logTwice))).toEqual([]);
    } finally {
      await session.close();
    }
  });

  it('goes there once, not also on an open GET stream', { timeout: stepTimeoutMs }, async () => {
    const session = await RawSession.open(`${app.url}/mcp`);
    const listening = await session.listen();
    try {
      await session.request('logging/setLevel', { level: 'debug' });
      await session.request('resources/subscribe', { uri: 'res://feature/0' });
      expect(logData(await session.request('tools/call', logTwice))).toEqual(['backend says hi', 'backend says hi']);
      // The GET stream's next message after the call is a later one (an update of the subscribed resource): a log
      // message sent there as well would have come first.
      await session.request('tools/call', { name: 'feature__touch', arguments: { uri: 'res://feature/0' } });
      const onStream = await listening.until((message) => message.method === 'notifications/resources/updated');
      expect(onStream.at(-1)?.params).toMatchObject({ uri: 'res://feature/0' });
      expect(logData(onStream)).toEqual([]);
    } finally {
      await listening.cancel();
      await session.close();
    }
  });
});

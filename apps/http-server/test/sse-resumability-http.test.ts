/**
 * Streamable HTTP resumability of the 2025 session leg (SEP-1699, 2025-11-25): a POST's SSE stream opens with a
 * priming event (an event id, empty data) carrying the `retry` field, and a client whose POST stream broke off gets
 * its response by `GET` with `Last-Event-ID`. Clients of revisions before 2025-11-25 get no priming event (they
 * cannot take empty data). A raw fetch client against the built `search-mcp-http`, so the test sees the events as
 * they are on the wire; the backends are the HTTP app's slow fixture (`wait {ms}` answers after `ms`) and its held
 * fixture (`hold {key}` answers once `release {key}` is called), so a response comes after the stream broke off
 * however loaded the machine.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliProcess, startCli } from './cli-process.js';
import { eventually, slowServer, temporaryDirectory } from './http-test-support.js';

const stepTimeoutMs = 60_000;
const heldServer = fileURLToPath(new URL('./fixtures/held-server.mjs', import.meta.url));

let directory: { path: string; remove: () => Promise<void> };
let app: CliProcess;

beforeAll(async () => {
  directory = await temporaryDirectory();
  const configFile = join(directory.path, 'config.json');
  await writeFile(
    configFile,
    JSON.stringify({
      mcpServers: {
        slow: { command: process.execPath, args: [slowServer] },
        held: { command: process.execPath, args: [heldServer] },
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

/** One Server-Sent Event as it is on the wire. */
interface SseEvent {
  id?: string;
  retry?: number;
  data: string;
}

/** Reads the Server-Sent Events of a response body. */
class EventReader {
  private readonly reader: ReadableStreamDefaultReader<Uint8Array>;
  private readonly decoder = new TextDecoder();
  private buffer = '';

  constructor(body: ReadableStream<Uint8Array> | null) {
    if (!body) throw new Error('no body');
    this.reader = body.getReader();
  }

  /** The next event; undefined when the stream ended. */
  async next(): Promise<SseEvent | undefined> {
    for (;;) {
      const end = this.buffer.indexOf('\n\n');
      if (end >= 0) {
        const lines = this.buffer.slice(0, end).split('\n');
        this.buffer = this.buffer.slice(end + 2);
        const field = (name: string) =>
          lines.filter((line) => line.startsWith(`${name}:`)).map((line) => line.slice(name.length + 1).trimStart());
        const [id] = field('id');
        const [retry] = field('retry');
        if (lines.every((line) => line.startsWith(':'))) continue; // a comment (keep-alive)
        return {
          ...(id !== undefined ? { id } : {}),
          ...(retry ? { retry: Number(retry) } : {}),
          data: field('data').join('\n'),
        };
      }
      const { done, value } = await this.reader.read();
      if (done) return undefined;
      this.buffer += this.decoder.decode(value, { stream: true }).replaceAll('\r\n', '\n');
    }
  }

  /** Events up to and including the JSON-RPC response to `id`. */
  async untilResponse(id: number): Promise<SseEvent[]> {
    const events: SseEvent[] = [];
    for (;;) {
      const event = await this.next();
      if (!event) throw new Error(`the stream ended before the response to ${id}: ${JSON.stringify(events)}`);
      events.push(event);
      if (event.data !== '' && (JSON.parse(event.data) as { id?: unknown }).id === id) return events;
    }
  }

  async cancel(): Promise<void> {
    await this.reader.cancel();
  }
}

/** A 2025 session of raw HTTP requests at `version`. */
async function openSession(version: string) {
  const endpoint = `${app.url}/mcp`;
  const headers = (sessionId?: string) => ({
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': version,
    ...(sessionId ? { 'mcp-session-id': sessionId } : {}),
  });
  const opened = await fetch(endpoint, {
    method: 'POST',
    headers: headers(),
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 'raw-sse', version: '1' } },
    }),
  });
  const sessionId = opened.headers.get('mcp-session-id') ?? '';
  expect(sessionId).not.toBe('');
  const handshake = await new EventReader(opened.body).untilResponse(1);
  const initialized = await fetch(endpoint, {
    method: 'POST',
    headers: headers(sessionId),
    body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
  });
  expect(initialized.status).toBe(202);
  const post = async (id: number, method: string, params: Record<string, unknown>) => {
    const response = await fetch(endpoint, {
      method: 'POST',
      headers: headers(sessionId),
      body: JSON.stringify({ jsonrpc: '2.0', id, method, params }),
    });
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    return new EventReader(response.body);
  };
  const resume = (lastEventId: string) =>
    fetch(endpoint, {
      method: 'GET',
      headers: {
        accept: 'text/event-stream',
        'mcp-protocol-version': version,
        'mcp-session-id': sessionId,
        'last-event-id': lastEventId,
      },
    });
  return { handshake, post, resume };
}

describe('SSE streams of 2025 sessions', () => {
  it('open with a priming event (an id, empty data) carrying retry, for 2025-11-25 clients', {
    timeout: stepTimeoutMs,
  }, async () => {
    const session = await openSession('2025-11-25');
    expect(session.handshake[0]).toEqual({ id: expect.any(String), retry: 1000, data: '' });
    const events = await (
      await session.post(2, 'tools/call', { name: 'slow__wait', arguments: { ms: 1 } })
    ).untilResponse(2);
    expect(events[0]).toEqual({ id: expect.any(String), retry: 1000, data: '' });
    const response = events.at(-1) as SseEvent;
    expect(response.id).toEqual(expect.any(String));
    expect(JSON.parse(response.data)).toMatchObject({ id: 2, result: { content: [{ type: 'text' }] } });
    // Delivered in full, so nothing of it is kept to resume: its event ids are unknown now. (The server forgets it
    // when its HTTP response has finished, which this side cannot observe: polled.)
    const resumed = await eventually(async () => {
      const answer = await session.resume(String(response.id));
      const status = answer.status;
      await answer.body?.cancel();
      return status === 400 ? status : undefined;
    });
    expect(resumed).toBe(400);
  });

  it('a stream that broke off is resumed with Last-Event-ID: the response comes on the GET', {
    timeout: stepTimeoutMs,
  }, async () => {
    const session = await openSession('2025-11-25');
    const stream = await session.post(7, 'tools/call', { name: 'held__hold', arguments: { key: 'seven' } });
    const priming = await stream.next();
    expect(priming).toMatchObject({ id: expect.any(String), data: '' });
    // The client's connection drops before the answer, which waits for the release below.
    await stream.cancel();
    // Until the server has seen the connection drop, the stream counts as connected (409), as for a real client that
    // reconnects after `retry`: polled.
    const resumed = await eventually(async () => {
      const answer = await session.resume(String(priming?.id));
      if (answer.status !== 409) return answer;
      await answer.body?.cancel();
      return undefined;
    });
    expect(resumed.status).toBe(200);
    await (await session.post(8, 'tools/call', { name: 'held__release', arguments: { key: 'seven' } })).untilResponse(
      8,
    );
    const events = await new EventReader(resumed.body).untilResponse(7);
    expect(JSON.parse((events.at(-1) as SseEvent).data)).toMatchObject({
      id: 7,
      result: { content: [{ type: 'text', text: 'released seven' }] },
    });
  });

  it('no priming event for a client of an earlier revision (it cannot take empty data)', {
    timeout: stepTimeoutMs,
  }, async () => {
    const session = await openSession('2025-06-18');
    expect(session.handshake[0]?.data).not.toBe('');
    const events = await (
      await session.post(2, 'tools/call', { name: 'slow__wait', arguments: { ms: 1 } })
    ).untilResponse(2);
    expect(events.filter((event) => event.data === '')).toEqual([]);
  });
});

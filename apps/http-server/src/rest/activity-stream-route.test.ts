/**
 * The live stream's bound over a real Fastify server and a real socket: a client that stops reading is dropped once
 * the data queued for it passes the limit, so its stream cannot grow the app's memory; one that reads gets every event.
 */
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { noSecrets } from '@search-mcp/shared';
import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { afterEach, describe, expect, it } from 'vitest';
import { type ActivityStreamEvent, registerActivityStreamRoute } from './activity-stream-route.js';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function streamApp(maxBufferedBytes: number) {
  const senders = new Set<(event: ActivityStreamEvent, data: unknown) => void>();
  let unsubscribed = 0;
  const app = Fastify().withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  // What the authentication hook leaves for an admin token.
  app.addHook('preValidation', async (request) => {
    request.verifiedToken = { id: 'admin' };
  });
  registerActivityStreamRoute(app, {
    redactor: noSecrets,
    maxBufferedBytes,
    subscribe: (send) => {
      senders.add(send);
      return () => {
        senders.delete(send);
        unsubscribed += 1;
      };
    },
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  closers.push(() => app.close());
  const { port } = app.server.address() as AddressInfo;
  return {
    port,
    senders,
    unsubscribed: () => unsubscribed,
    emit: (data: unknown) => {
      for (const send of senders) send('call', data);
    },
  };
}

/** Opens the stream over a raw socket and resolves once its first bytes arrived; `pause` stops reading. */
function openRawStream(port: number) {
  const socket = connect(port, '127.0.0.1');
  closers.push(async () => {
    socket.destroy();
  });
  let received = '';
  const opened = new Promise<void>((resolve) => {
    socket.once('data', () => resolve());
  });
  socket.on('data', (chunk: Buffer) => {
    received += chunk.toString('utf8');
  });
  socket.write(`GET /v1/activity/stream HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
  return { socket, opened, received: () => received };
}

describe('GET /v1/activity/stream', () => {
  it('drops a client that does not read once its unsent data passes the limit', async () => {
    const server = await streamApp(64 * 1024);
    const client = openRawStream(server.port);
    await client.opened;
    client.socket.pause();
    const payload = { text: 'x'.repeat(16 * 1024) };
    let sentBytes = 0;
    // The kernel's socket buffers take the first megabytes; past them the app queues, up to its limit.
    while (server.unsubscribed() === 0 && sentBytes < 512 * 1024 * 1024) {
      server.emit(payload);
      sentBytes += 16 * 1024;
      // One event per turn of the event loop, so what the socket can take leaves the app's queue as it would.
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(server.unsubscribed()).toBe(1);
    expect(server.senders.size).toBe(0);
    // It was dropped for not reading, not for a burst: far more than the limit went out first.
    expect(sentBytes).toBeGreaterThan(4 * 64 * 1024);
  });

  it('delivers every event to a client that reads', async () => {
    const server = await streamApp(64 * 1024);
    const client = openRawStream(server.port);
    await client.opened;
    // As much as the other client was sent, at the same pace: read, it never queues up to the limit.
    const payload = 'x'.repeat(16 * 1024);
    for (let index = 0; index < 100; index += 1) {
      server.emit({ index, payload });
      await new Promise((resolve) => setImmediate(resolve));
    }
    const last = new Promise<void>((resolve) => {
      const check = () => {
        if (client.received().includes('"index":99')) resolve();
        else client.socket.once('data', check);
      };
      check();
    });
    await last;
    expect(client.received().match(/^event: call$/gm)).toHaveLength(100);
    expect(server.unsubscribed()).toBe(0);
  });
});

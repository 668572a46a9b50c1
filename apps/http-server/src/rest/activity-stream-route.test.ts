/**
 * The live stream's bound over a real Fastify server and a real socket: a client that stops reading is dropped once
 * the data queued for it passes the limit, so its stream cannot grow the app's memory; one that reads gets every event.
 */
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { createGrowingSecretRedactor, noSecrets, type SecretRedactor } from '@search-mcp/shared';
import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { afterEach, describe, expect, it } from 'vitest';
import type { OAuthCaller } from '../request-context.js';
import { type ActivityStreamEvent, registerActivityStreamRoute } from './activity-stream-route.js';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function streamApp(
  maxBufferedBytes: number,
  options: { oauthCaller?: OAuthCaller; redactor?: SecretRedactor } = {},
) {
  const senders = new Set<(event: ActivityStreamEvent, data: unknown) => void>();
  let unsubscribed = 0;
  const app = Fastify().withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  // What the authentication hook leaves for an admin token (or an OAuth caller with an admin role).
  app.addHook('preValidation', async (request) => {
    if (options.oauthCaller) {
      request.verifiedToken = { id: `oauth:${options.oauthCaller.subject}` };
      request.oauthCaller = options.oauthCaller;
    } else request.verifiedToken = { id: 'admin' };
  });
  registerActivityStreamRoute(app, {
    redactor: options.redactor ?? noSecrets,
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
    emit: (data: unknown, event: ActivityStreamEvent = 'call') => {
      for (const send of senders) send(event, data);
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
    // As much as the other client was sent, at the pace it reads: never more than three events (48 KiB) ahead of
    // what it received, so the queue stays under the limit however busy the machine (no race with the scheduler).
    const payload = 'x'.repeat(16 * 1024);
    const receivedIndex = (index: number) =>
      new Promise<void>((resolve) => {
        const check = () => {
          if (client.received().includes(`"index":${index},`)) resolve();
          else client.socket.once('data', check);
        };
        check();
      });
    for (let index = 0; index < 100; index += 1) {
      if (index >= 3) await receivedIndex(index - 3);
      server.emit({ index, payload });
    }
    await receivedIndex(99);
    expect(client.received().match(/^event: call$/gm)).toHaveLength(100);
    expect(server.unsubscribed()).toBe(0);
  });

  it("ends an OAuth caller's stream when its token expires", async () => {
    const expiresAt = Math.floor(Date.now() / 1000) + 1;
    const server = await streamApp(64 * 1024, {
      oauthCaller: { subject: 'kim', scopes: [], access: {} as OAuthCaller['access'], admin: true, expiresAt },
    });
    const client = openRawStream(server.port);
    // The response ends (its last chunk: the connection itself may stay open for the next request).
    const ended = new Promise<void>((resolve) => {
      const check = () => {
        if (client.received().endsWith('\r\n0\r\n\r\n')) resolve();
        else client.socket.once('data', check);
      };
      check();
    });
    await client.opened;
    await ended;
    expect(Date.now()).toBeGreaterThanOrEqual(expiresAt * 1000 - 50);
    expect(server.unsubscribed()).toBe(1);
    expect(server.senders.size).toBe(0);
  });

  it('redacts every event value by value: a secret escaped in JSON text is masked too', async () => {
    const secret = 'pa"ss\\word-1234';
    const server = await streamApp(64 * 1024, { redactor: createGrowingSecretRedactor([secret]) });
    const client = openRawStream(server.port);
    await client.opened;
    const done = new Promise<void>((resolve) => {
      const check = () => {
        if (client.received().includes('"state":"failed"')) resolve();
        else client.socket.once('data', check);
      };
      check();
    });
    server.emit({ id: 'remote', state: 'failed', lastError: `refused: ${secret}` }, 'server');
    await done;
    expect(client.received()).toContain('event: server');
    expect(client.received()).not.toContain('word-1234');
  });
});

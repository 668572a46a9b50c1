import { InMemoryTransport, SdkError, SdkErrorCode } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { ParamsCheckingServer } from './params-checking-server.js';

/**
 * `ParamsCheckingServer._onclose`: the SDK's "Connection closed" error is built without a stack (a 2026-07-28
 * instance closes after every request), and nothing else loses its stack: the limit is back before the instance's own
 * `onclose` runs, and after the close.
 */
describe('closing a server instance', () => {
  it('fails what waits with a stackless ConnectionClosed error, and restores the stack limit before onclose', async () => {
    const server = new ParamsCheckingServer({ name: 'close-test', version: '1' });
    const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
    // The client side never answers: the server's ping waits until the connection closes.
    await clientSide.start();
    await server.connect(serverSide);
    const limitBefore = Error.stackTraceLimit;
    const seenInOnclose: Array<{ limit: number; stack: string | undefined }> = [];
    server.onclose = () => {
      seenInOnclose.push({ limit: Error.stackTraceLimit, stack: new Error('in onclose').stack });
    };
    const waiting = server.ping().then(
      () => undefined,
      (error: unknown) => error,
    );

    await server.close();
    const failure = await waiting;

    expect(failure).toBeInstanceOf(SdkError);
    expect((failure as SdkError).code).toBe(SdkErrorCode.ConnectionClosed);
    // No frames: the stack is the message line alone.
    expect((failure as SdkError).stack?.split('\n')).toHaveLength(1);
    expect(seenInOnclose).toHaveLength(1);
    expect(seenInOnclose[0]?.limit).toBe(limitBefore);
    expect(seenInOnclose[0]?.stack?.split('\n').length).toBeGreaterThan(1);
    expect(Error.stackTraceLimit).toBe(limitBefore);
    // The instance's own handler is in place again (the close put a wrapper there only while it ran).
    expect(server.onclose).toBeTypeOf('function');
    expect(server.onclose?.toString()).toContain('seenInOnclose');
  });
});

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type AuthorizationCallback, callbackPage, readAuthorizationCallback } from './authorization-callback.js';

export interface LoopbackCallback {
  /** `http://127.0.0.1:<port>/callback`: the redirect URI to register and send. */
  redirectUrl: string;
  /**
   * The redirect that reaches `/callback` with the `state` given to `expect()`. Any other request there (a stray or
   * forged one from another local program or web page) gets a 400 page and changes nothing: the login keeps waiting.
   */
  callback: Promise<AuthorizationCallback>;
  /** The `state` of the authorization URL the person is sent to (known once the SDK built it). */
  expect(state: string): void;
  close(): Promise<void>;
}

/**
 * A one-shot HTTP listener on 127.0.0.1 for the authorization redirect of a native client (RFC 8252 §7.3: loopback
 * IP literal, any port). `port` is tried first (the config's `redirectPort`, or the port a stored registration names);
 * when it is taken and not required, any free port is used instead.
 */
export async function startLoopbackCallback(options: {
  serverId: string;
  port?: number;
  /** The port must be this one (the config named it): fail rather than take another. */
  required?: boolean;
}): Promise<LoopbackCallback> {
  let settle: (callback: AuthorizationCallback) => void = () => {};
  const callback = new Promise<AuthorizationCallback>((resolve) => {
    settle = resolve;
  });
  let expectedState: string | undefined;
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    if (request.method !== 'GET' || url.pathname !== '/callback') {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    const received = readAuthorizationCallback(url.searchParams);
    const ours = expectedState !== undefined && received.state === expectedState;
    // The page only says the redirect arrived: whether the login worked is known after the code exchange.
    const arrived = ours && received.code !== undefined && received.error === undefined;
    response
      .writeHead(arrived ? 200 : 400, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' })
      .end(callbackPage(arrived ? 'arrived' : ours ? 'refused' : 'unknown', options.serverId));
    if (ours) settle(received);
  });
  const port = await listen(server, options.port ?? 0).catch(async (error: unknown) => {
    if (options.required || options.port === undefined || options.port === 0) throw error;
    return listen(server, 0);
  });
  return {
    redirectUrl: `http://127.0.0.1:${port}/callback`,
    callback,
    expect: (state) => {
      expectedState = state;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function listen(server: Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (error: Error) => reject(error);
    server.once('error', onError);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', onError);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

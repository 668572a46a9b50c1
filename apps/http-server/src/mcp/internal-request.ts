import { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { Duplex } from 'node:stream';
import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import type { NodeSessionTransport } from '../legacy/node-session-transport.js';

/**
 * Serves one JSON-RPC message through a session's transport as if a client had POSTed it, and throws the answer
 * away: how a replica rebuilds a 2025 session another replica opened (its stored `initialize`, then
 * `notifications/initialized`, then the session's log level and subscriptions). The transport only takes node
 * requests, so the request and response here are node's own classes over a socket that writes nowhere; nothing
 * reaches the network. Resolves with the HTTP status once the answer is complete.
 */
export async function serveInternally(
  transport: NodeSessionTransport,
  message: JSONRPCMessage,
  headers: Record<string, string> = {},
): Promise<number> {
  const socket = new Duplex({
    read() {},
    write(_chunk, _encoding, done) {
      done();
    },
  }) as unknown as Socket;
  const request = new IncomingMessage(socket);
  const allHeaders: Record<string, string> = {
    host: 'localhost',
    accept: 'application/json, text/event-stream',
    'content-type': 'application/json',
    ...headers,
  };
  request.method = 'POST';
  request.url = '/mcp';
  request.headers = allHeaders;
  request.rawHeaders = Object.entries(allHeaders).flat();
  // The body is handed over parsed: the stream itself is empty and ended.
  request.push(null);
  const response = new ServerResponse(request);
  response.assignSocket(socket);
  const complete = new Promise<void>((resolve) => {
    response.once('finish', resolve);
    response.once('close', resolve);
  });
  try {
    await transport.handleRequest(request, response, message);
    await complete;
    return response.statusCode;
  } finally {
    response.detachSocket(socket);
    socket.destroy();
  }
}

import { createServer } from 'node:net';

/**
 * A port free on 127.0.0.1 right now, for a program that takes its port from its environment (the Inspector's
 * `SERVER_PORT` and `CLIENT_PORT`) and cannot be asked to pick one itself.
 */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port from the operating system');
  return address.port;
}

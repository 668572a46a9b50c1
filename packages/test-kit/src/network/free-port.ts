import { createServer } from 'node:net';

/**
 * A port free on 127.0.0.1 right now: the kernel picks it, then it is given back for a process of the test to take
 * (a redis-server, a replica whose port a load balancer's configuration names, a browser's debugging port).
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

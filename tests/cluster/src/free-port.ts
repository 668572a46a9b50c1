import { createServer } from 'node:net';

/**
 * A port free on 127.0.0.1 right now. The rig fixes each replica's port up front: HAProxy's configuration names
 * them, and a replica restarted after a kill must come back where the load balancer looks for it.
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

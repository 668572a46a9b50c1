import type { BackendPeer } from './backend-peer.js';
import type { ProcessTransport } from '../process/process-transport.js';

/** Closes a connection that may be half open or broken, never throwing; a server process is ended either way. */
export async function closeConnection(client?: BackendPeer, serverProcess?: ProcessTransport): Promise<void> {
  try {
    if (client) await client.close();
    else if (serverProcess) await serverProcess.close();
  } catch {
    // Closing a broken connection may fail; the process group is ended below or already.
  }
  if (client && serverProcess) await serverProcess.close().catch(() => {});
}

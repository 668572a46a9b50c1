import type { SearchMcpRuntime } from '@search-mcp/runtime';
import { createProgressReporter } from '../terminal-output.js';

/**
 * Starts only the servers whose tool list is not kept from an earlier run (README, "Discovery before the servers are
 * up"), showing progress on a terminal, and resolves once they are up or failed: `search` then answers from the
 * kept lists and the live ones, without waiting for the other servers to start. Returns the ids it started.
 */
export async function startUnlistedServers(runtime: SearchMcpRuntime): Promise<string[]> {
  const kept = new Set<string>();
  for (const tool of await runtime.manager.listAllTools()) if (tool.cached) kept.add(tool.serverName);
  const servers = runtime.manager.config.mcpServers;
  const unlisted = runtime.manager.serverIds.filter((id) => {
    const server = servers[id];
    return server?.enabled === true && server.configError === undefined && !kept.has(id);
  });
  if (unlisted.length === 0) return [];
  const progress = createProgressReporter();
  const waiting = new Set(unlisted);
  const listener = (status: { id: string; state: string }) => {
    if (status.state !== 'starting') waiting.delete(status.id);
    progress.update(`Connecting servers without a kept tool list: waiting for ${[...waiting].join(', ')}`);
  };
  runtime.manager.on('status-change', listener);
  progress.update(`Connecting ${unlisted.length} servers without a kept tool list…`);
  try {
    // A failure is the server's status (shown with the results), not the command's.
    await Promise.allSettled(unlisted.map((id) => runtime.manager.start(id)));
  } finally {
    runtime.manager.off('status-change', listener);
    progress.done();
  }
  return unlisted;
}

import { isPerUserServer, type ResolvedConfig } from '@search-mcp/shared';

/**
 * What a config starts per `search-mcp-http` replica (docs/scale-out.md, "Backends per replica"): each replica runs
 * its own process for every stdio server; a remote server is one connection per replica, reached by URL, and a
 * per-user one a connection per signed-in user. Disabled servers and entries with a config error start nothing.
 */
export interface BackendProcesses {
  /** Processes one replica (or one `search-mcp`) starts: one per stdio server, its process tree counted once. */
  perReplica: number;
  stdioServers: string[];
  remoteServers: string[];
  /** Remote servers with `identity: "per-user"`: one connection per signed-in user, no process. */
  perUserServers: string[];
  /** `cluster` is in the config: the counts hold for each replica. */
  replicated: boolean;
}

export function backendProcessesOf(config: ResolvedConfig): BackendProcesses {
  const started = Object.values(config.mcpServers).filter((server) => server.enabled && !server.configError);
  const stdioServers = started.filter((server) => server.transport === 'stdio').map((server) => server.id);
  const remote = started.filter((server) => server.transport !== 'stdio');
  return {
    perReplica: stdioServers.length,
    stdioServers,
    remoteServers: remote.filter((server) => server.identity !== 'per-user').map((server) => server.id),
    perUserServers: remote.filter(isPerUserServer).map((server) => server.id),
    replicated: config.cluster !== undefined,
  };
}

/** `doctor`'s lines: the processes started, and the connections beside them. */
export function formatBackendProcesses(processes: BackendProcesses): string[] {
  const replicas = processes.replicated ? ' per replica (× replicas)' : '';
  const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;
  const lines = [
    `Backend processes: ${processes.perReplica}${replicas}` +
      (processes.stdioServers.length > 0 ? ` (stdio: ${processes.stdioServers.join(', ')})` : ''),
  ];
  if (processes.remoteServers.length > 0) {
    lines.push(
      `  ${plural(processes.remoteServers.length, 'remote server')}, no process: ${processes.remoteServers.join(', ')}` +
        (processes.replicated ? ' (one connection per replica, shared by URL)' : ''),
    );
  }
  if (processes.perUserServers.length > 0) {
    lines.push(`  per-user, no process: ${processes.perUserServers.join(', ')} (one connection per signed-in user)`);
  }
  return [...lines, ''];
}

import type { ResolvedConfig, SandboxConfig } from '@search-mcp/shared';

/** One sandboxed server as `doctor` shows it (docs/trust.md, "Sandboxed servers"). */
export interface SandboxSummary extends SandboxConfig {
  server: string;
}

/** The sandbox of every stdio server that has one, in config order. */
export function sandboxesOf(config: ResolvedConfig): SandboxSummary[] {
  return Object.entries(config.mcpServers).flatMap(([server, entry]) =>
    entry.transport === 'stdio' && entry.sandbox ? [{ server, ...entry.sandbox }] : [],
  );
}

/** `doctor`'s lines: kind, network, image, and each path with its mode; nothing when no server is sandboxed. */
export function formatSandboxes(sandboxes: SandboxSummary[]): string[] {
  if (sandboxes.length === 0) return [];
  const lines = sandboxes.map((sandbox) => {
    const paths = sandbox.paths.map(({ path, writable }) => `${path} (${writable ? 'writable' : 'read-only'})`);
    const parts = [
      sandbox.kind,
      ...(sandbox.image !== undefined ? [`image ${sandbox.image}`] : []),
      sandbox.network ? 'network' : 'no network',
      paths.length > 0 ? `paths ${paths.join(', ')}` : 'no paths',
    ];
    return `  ${sandbox.server}: ${parts.join(', ')}`;
  });
  return ['Sandboxes:', ...lines, ''];
}

import type { ResolvedConfig } from '@search-mcp/shared';

const maxServersListed = 40;
const maxDescriptionLength = 80;

/**
 * The `instructions` of `initialize`: what the catalog holds (one line per server) and how to use the meta-tools.
 * Built from the config, so it is complete even while servers are still connecting, and bounded in size however
 * many servers there are.
 */
export function buildServerInstructions(config: ResolvedConfig, mode: 'meta' | 'proxy', projectId?: string): string {
  const servers = Object.values(config.mcpServers).filter(
    (server) =>
      server.enabled &&
      (projectId === undefined ? server.projects === undefined : server.projects?.includes(projectId)),
  );
  const lines = servers.slice(0, maxServersListed).map((server) => {
    const description = server.description ? `: ${truncate(server.description, maxDescriptionLength)}` : '';
    return `- ${server.id}${description}`;
  });
  if (servers.length > maxServersListed) lines.push(`- … and ${servers.length - maxServersListed} more`);
  const usage =
    mode === 'meta'
      ? 'Search MCP gives access to the tools of the MCP servers below. Their tools are not listed: call ' +
        'tool_discovery with what you want to do (several phrasings help), then tool_execute with the toolKey it ' +
        'returns and matching arguments.'
      : 'Search MCP lists the tools of the MCP servers below as <server>__<tool>.';
  return lines.length > 0 ? `${usage}\nServers:\n${lines.join('\n')}` : usage;
}

function truncate(text: string, limit: number): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length <= limit ? line : `${line.slice(0, limit - 1)}…`;
}

import { type CallerAccess, isServerAllowed, isServerVisibleToProject } from '@search-mcp/catalog';
import { type ResolvedConfig, truncateText } from '@search-mcp/shared';

const maxServersListed = 40;
const maxDescriptionLength = 80;

/**
 * The `instructions` of `initialize`: what the catalog holds (one line per server) and how to use the meta-tools.
 * Built from the config, so it is complete even while servers are still connecting, and bounded in size however
 * many servers there are.
 */
export function buildServerInstructions(
  config: ResolvedConfig,
  mode: 'meta' | 'proxy',
  projectId?: string,
  access?: CallerAccess,
): string {
  // The catalog's visibility rule, so the instructions name exactly the servers whose tools the caller can reach.
  // A server whose entry is broken cannot start: it is not offered as available.
  const servers = Object.values(config.mcpServers).filter(
    (server) =>
      server.enabled &&
      server.configError === undefined &&
      isServerVisibleToProject(server.projects, projectId) &&
      isServerAllowed(access, projectId, server.id),
  );
  const lines = servers.slice(0, maxServersListed).map((server) => {
    const description = server.description ? `: ${truncateText(server.description, maxDescriptionLength)}` : '';
    return `- ${server.id}${description}`;
  });
  if (servers.length > maxServersListed) lines.push(`- … and ${servers.length - maxServersListed} more`);
  const usage =
    mode === 'meta'
      ? 'Search MCP gives access to the tools of the MCP servers below. Their tools are not listed: call ' +
        'tool_discovery with what you want to do (several phrasings help), then tool_execute with the toolKey it ' +
        'returns and matching arguments.'
      : config.exposure.names === 'original'
        ? 'Search MCP lists the tools of the MCP servers below under their own names (as <server>__<tool> where ' +
          'two servers share a name).'
        : 'Search MCP lists the tools of the MCP servers below as <server>__<tool>.';
  return lines.length > 0 ? `${usage}\nServers:\n${lines.join('\n')}` : usage;
}

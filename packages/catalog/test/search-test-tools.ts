/**
 * Tools for the search tests: a small realistic catalog. The 22 real servers' tool lists come from
 * `loadRealServerTools()` of @search-mcp/test-kit.
 */
import type { ToolInfo } from '@search-mcp/shared';
import type { Bm25SearchProvider } from '../src/providers/bm25-search-provider.js';

export function tool(
  serverName: string,
  toolName: string,
  description: string,
  extra: Partial<ToolInfo> = {},
): ToolInfo {
  return {
    toolKey: `${serverName}:${toolName}`,
    toolName,
    serverName,
    description,
    inputSchema: { type: 'object' },
    ...extra,
  };
}

/** A small, realistic catalog: several servers with overlapping vocabulary. */
export const sampleCatalog: ToolInfo[] = [
  tool('filesystem', 'read_file', 'Read the complete contents of a file from the file system.', {
    inputSchema: { type: 'object', properties: { path: { type: 'string', description: 'Path of the file' } } },
  }),
  tool('filesystem', 'write_file', 'Create a new file or overwrite an existing file with new content.'),
  tool('filesystem', 'list_directory', 'Get a detailed listing of all files and directories in a specified path.'),
  tool('filesystem', 'move_file', 'Move or rename files and directories.'),
  tool('github', 'create_pull_request', 'Create a new pull request in a GitHub repository'),
  tool('github', 'list_issues', 'List issues in a GitHub repository with filtering options'),
  tool('github', 'get_file_contents', 'Get the contents of a file or directory from a GitHub repository'),
  tool('slack', 'slack_post_message', 'Post a new message to a Slack channel'),
  tool('slack', 'slack_list_channels', 'List public channels in the workspace'),
  tool('kubernetes', 'kubectl_logs', 'Get logs from Kubernetes resources like pods, deployments, or jobs'),
  tool(
    'kubernetes',
    'kubectl_get',
    'Get or list Kubernetes resources by resource type, name, and optionally namespace',
  ),
  tool('kubernetes', 'kubectl_scale', 'Scale a Kubernetes deployment'),
  tool('playwright', 'browser_take_screenshot', 'Take a screenshot of the current page.'),
  tool('playwright', 'browser_click', 'Perform click on a web page'),
  tool('playwright', 'browser_navigate', 'Navigate to a URL'),
  tool('postgres', 'query', 'Run a read-only SQL query'),
  tool('maps', 'maps_directions', 'Get directions between two points'),
];

/** The keys of the top results. */
export async function top(
  provider: Bm25SearchProvider,
  queries: string[],
  tools: readonly ToolInfo[] = sampleCatalog,
  maxResults = 5,
): Promise<string[]> {
  const results = await provider.search({ queries, tools, maxResults });
  return results.map((result) => result.toolKey);
}

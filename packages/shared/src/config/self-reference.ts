/**
 * A config merged from a client's file may list Search MCP itself. Starting it as its own backend would start
 * another Search MCP reading the same file, and so on, so such an entry is skipped with a warning.
 */

/** Published names and bins of the stdio app. */
const PACKAGE_NAMES = ['search-mcp', '@search-mcp/cli', '@search-mcp/stdio-server'];

/** A built app run from a clone: `node …/apps/stdio-server/dist/cli.js`. */
const BUILT_CLI = /(?:^|[\\/])apps[\\/]stdio-server[\\/]dist[\\/]cli\.js$/;

/**
 * An installed package run by path: `node …/node_modules/@search-mcp/cli/dist/cli.js`, as `init` writes when
 * `search-mcp` is not on PATH (also `search-mcp`, `@search-mcp/stdio-server`; `/` or `\` on Windows).
 */
const INSTALLED_CLI =
  /(?:^|[\\/])node_modules[\\/](?:@search-mcp[\\/](?:cli|stdio-server)|search-mcp)[\\/]dist[\\/]cli\.js$/;

/** The words of `command` and `args` that show the entry runs Search MCP, or undefined when none does. */
export function searchMcpInvocation(command: string, args: readonly string[]): string | undefined {
  for (const word of [command, ...args]) {
    if (namesSearchMcp(word)) return word;
  }
  return undefined;
}

/** The warning of a skipped entry that runs Search MCP (`invocation` from `searchMcpInvocation`). */
export function selfReferenceWarning(invocation: string): string {
  return `skipped: it runs Search MCP itself (${JSON.stringify(invocation)}), which would start itself`;
}

function namesSearchMcp(word: string): boolean {
  if (BUILT_CLI.test(word) || INSTALLED_CLI.test(word)) return true;
  // `npx -y @search-mcp/cli@1.2.0`, `search-mcp@latest`, `/usr/local/bin/search-mcp`, `search-mcp.cmd`.
  const base = word.replace(/^.*[\\/](?=[^\\/]+$)/, '').replace(/\.(?:cmd|exe|ps1)$/i, '');
  const candidates = [word, base];
  return candidates.some((candidate) =>
    PACKAGE_NAMES.some(
      (name) => candidate === name || (candidate.startsWith(`${name}@`) && candidate.length > name.length + 1),
    ),
  );
}

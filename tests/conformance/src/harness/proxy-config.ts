import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** The id of the fixture in Search MCP's config; the readiness wait looks for its "connected" log line. */
export const fixtureServerId = 'fixture';

/**
 * A Search MCP config with the fixture as its only backend, in proxy mode: every backend tool, prompt and resource is
 * listed as itself, so the suite's scenarios find them by the names they expect (`names: "original"` keeps the
 * backend's names instead of `fixture__<name>`). Anonymous access: the suite's runner sends no token, and the server
 * listens on 127.0.0.1 only. Returns the file's path.
 */
export async function writeProxyConfig(directory: string, fixtureUrl: URL): Promise<string> {
  const path = join(directory, 'search-mcp.json');
  const config = {
    mcpServers: { [fixtureServerId]: { type: 'http', url: fixtureUrl.href } },
    exposure: { mode: 'proxy', names: 'original' },
    auth: { allowAnonymous: true },
  };
  await writeFile(path, `${JSON.stringify(config, null, 2)}\n`);
  return path;
}

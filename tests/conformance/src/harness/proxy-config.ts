import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** The id of the fixture in Search MCP's config; the readiness wait looks for its "connected" log line. */
export const fixtureServerId = 'fixture';

/**
 * A Search MCP config with the fixture as its only backend, in `mode`, written to `directory/<fileName>`; returns
 * its path.
 *
 * `names: "original"` in both modes: the scenarios ask for the fixture's tools and prompts by their own names
 * (`test_simple_prompt`, not `fixture__test_simple_prompt`). In proxy mode every backend tool, prompt and resource is
 * listed as itself; in meta mode the tools are behind the meta-tools and prompts and resources are listed as
 * themselves. Anonymous access: the suite's runner sends no token, and the servers listen on 127.0.0.1 only (the
 * stdio app ignores `auth`).
 */
export async function writeSearchMcpConfig(
  directory: string,
  fileName: string,
  fixtureUrl: URL,
  mode: 'proxy' | 'meta',
): Promise<string> {
  const path = join(directory, fileName);
  const config = {
    mcpServers: { [fixtureServerId]: { type: 'http', url: fixtureUrl.href } },
    exposure: { mode, names: 'original' },
    auth: { allowAnonymous: true },
  };
  await writeFile(path, `${JSON.stringify(config, null, 2)}\n`);
  return path;
}

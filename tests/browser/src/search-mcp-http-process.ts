/**
 * The built `search-mcp-http` (`@search-mcp/http`'s `dist/cli.js`) as a child process, on a port of its choosing,
 * behind OAuth (`auth.oauth` naming the test's authorization server, docs/oauth-in-front.md) and open to one browser
 * origin (`--cors-origin`): the Inspector's page calls it directly.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);
/** The `search-mcp-http` bin; `turbo run test` builds it first (`@search-mcp/http` is a devDependency). */
const cliEntry = join(dirname(require.resolve('@search-mcp/http/package.json')), 'dist/cli.js');

export interface SearchMcpHttpProcess {
  /** `http://127.0.0.1:<port>`. */
  url: string;
  /** Everything it logged (stderr), for failure messages. */
  output(): string;
  close(): Promise<void>;
}

export async function startSearchMcpHttp(options: {
  issuer: string;
  corsOrigin: string;
}): Promise<SearchMcpHttpProcess> {
  const directory = await mkdtemp(join(tmpdir(), 'search-mcp-browser-'));
  const configFile = join(directory, 'mcp-servers.json');
  // No backend: the two meta tools (tool_discovery, tool_execute) are what the Inspector lists.
  await writeFile(configFile, JSON.stringify({ mcpServers: {}, auth: { oauth: { issuer: options.issuer } } }));
  const child: ChildProcess = spawn(
    process.execPath,
    [cliEntry, '--config', configFile, '--port', '0', '--no-watch', '--cors-origin', options.corsOrigin],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  const exited = once(child, 'exit');
  let output = '';
  const close = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await exited;
    }
    await rm(directory, { recursive: true, force: true });
  };
  try {
    const url = await new Promise<string>((resolve, reject) => {
      child.stderr?.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        if (!output.includes('search-mcp-http listening')) return;
        const found = /"url":"(http:\/\/[^"]+)"/.exec(output)?.[1];
        if (found) resolve(found);
        else reject(new Error(`search-mcp-http printed no URL:\n${output}`));
      });
      void exited.then(() => reject(new Error(`search-mcp-http exited before listening:\n${output}`)));
    });
    return { url, output: () => output, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/**
 * The built `search-mcp-http` (`@search-mcp/http`'s `dist/cli.js`) as a child process for the console suite
 * (docs/console.md): real servers behind it (`@modelcontextprotocol/server-everything`, `-memory`, and the hostile
 * fixture of `fixtures/`), an admin token (no `projects`), a token limited to one project, and OAuth with the roles of
 * `oauth-viewer.ts` (an admin scope, and a read-only one) when an issuer is given. The console it serves
 * at `/ui` is what `dist/console` holds (the http-server build copies `@search-mcp/console`'s `dist` there).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { consoleRoles } from './oauth-viewer.js';
import { cliEntry, everythingEntry, hostileServerEntry, memoryEntry } from './real-server-entries.js';

export const adminToken = 'console-admin-token-0123456789-abcdefghij';
export const projectToken = 'console-alpha-token-0123456789-abcdefghij';

export interface ConsoleAppProcess {
  /** `http://127.0.0.1:<port>`. */
  url: string;
  /** Everything it logged (stderr), for failure messages. */
  output(): string;
  close(): Promise<void>;
}

/**
 * The config: three servers without projects (an admin caller without a project sees them), one of project `alpha`,
 * and the two tokens.
 */
function consoleConfig(directory: string, oauthIssuer: string | undefined) {
  return {
    mcpServers: {
      everything: { command: process.execPath, args: [everythingEntry] },
      memory: {
        command: process.execPath,
        args: [memoryEntry],
        // Its knowledge graph goes to the test's own folder, not the package's.
        env: { MEMORY_FILE_PATH: join(directory, 'memory.jsonl') },
      },
      hostile: { command: process.execPath, args: [hostileServerEntry] },
      // Seen only with the project `alpha` (docs/projects-and-tokens.md): what the project token works with.
      'alpha-tools': { command: process.execPath, args: [hostileServerEntry], projects: ['alpha'] },
    },
    auth: {
      tokens: [
        { id: 'admin', token: adminToken },
        { id: 'alpha-only', token: projectToken, projects: ['alpha'] },
      ],
      ...(oauthIssuer ? { oauth: { issuer: oauthIssuer, roles: consoleRoles } } : {}),
    },
  };
}

export async function startConsoleApp(options: { oauthIssuer?: string } = {}): Promise<ConsoleAppProcess> {
  const directory = await mkdtemp(join(tmpdir(), 'search-mcp-console-'));
  const configFile = join(directory, 'mcp-servers.json');
  await writeFile(configFile, JSON.stringify(consoleConfig(directory, options.oauthIssuer)));
  const child: ChildProcess = spawn(process.execPath, [cliEntry, '--config', configFile, '--port', '0', '--no-watch'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
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

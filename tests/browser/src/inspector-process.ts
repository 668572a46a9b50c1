/**
 * The MCP Inspector (0.21) as its `mcp-inspector` bin starts it, in its two parts: the proxy (`inspector-server`,
 * which opens MCP connections for the page in "Via Proxy" mode) and the web client (`inspector-client`, the page's
 * static files). Started directly so each gets a free port and the test knows when each listens; no browser is opened
 * (`MCP_AUTO_OPEN_ENABLED=false`). The proxy keeps its session-token check: the test makes the token and hands it to
 * the page in the URL, as the bin's "Open inspector with token pre-filled" line does.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { freePort } from '@search-mcp/test-kit';

const require = createRequire(import.meta.url);
const inspectorRoot = dirname(require.resolve('@modelcontextprotocol/inspector/package.json'));
const fromInspector = createRequire(join(inspectorRoot, 'package.json'));
const proxyEntry = join(
  dirname(fromInspector.resolve('@modelcontextprotocol/inspector-server/package.json')),
  'build/index.js',
);
const clientEntry = join(
  dirname(fromInspector.resolve('@modelcontextprotocol/inspector-client/package.json')),
  'bin/client.js',
);

export interface InspectorProcess {
  /** `http://127.0.0.1:<client port>`: the page, and the origin of every request the page makes. */
  origin: string;
  /** `http://127.0.0.1:<proxy port>`. */
  proxyAddress: string;
  /** The proxy's session token (`X-MCP-Proxy-Auth`). */
  proxyToken: string;
  /** The page, with `serverUrl` and the Streamable HTTP transport filled in, and the proxy's address and token. */
  pageUrl(serverUrl: string): string;
  /** Everything both parts printed, for failure messages. */
  output(): string;
  close(): Promise<void>;
}

export async function startInspector(): Promise<InspectorProcess> {
  const [clientPort, proxyPort] = [await freePort(), await freePort()];
  const proxyToken = randomBytes(32).toString('hex');
  const origin = `http://127.0.0.1:${clientPort}`;
  const proxyAddress = `http://127.0.0.1:${proxyPort}`;
  let output = '';
  const children: ChildProcess[] = [];

  const start = async (name: string, entry: string, env: NodeJS.ProcessEnv, listening: string) => {
    const child = spawn(process.execPath, [entry], {
      env: { ...process.env, HOST: '127.0.0.1', MCP_AUTO_OPEN_ENABLED: 'false', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    const exited = once(child, 'exit');
    await new Promise<void>((resolve, reject) => {
      const onData = (chunk: Buffer) => {
        output += `[${name}] ${chunk.toString()}`;
        if (output.includes(listening)) resolve();
      };
      child.stdout?.on('data', onData);
      child.stderr?.on('data', onData);
      void exited.then(() => reject(new Error(`the Inspector's ${name} exited before listening:\n${output}`)));
    });
  };

  const close = async () => {
    await Promise.all(
      children.map(async (child) => {
        if (child.exitCode !== null || child.signalCode !== null) return;
        const exited = once(child, 'exit');
        child.kill('SIGTERM');
        await exited;
      }),
    );
  };

  try {
    await start(
      'proxy',
      proxyEntry,
      // The proxy takes requests from `http://localhost:<client port>` only unless told otherwise; the page is
      // opened at 127.0.0.1, the address both parts listen on.
      {
        SERVER_PORT: String(proxyPort),
        CLIENT_PORT: String(clientPort),
        MCP_PROXY_AUTH_TOKEN: proxyToken,
        ALLOWED_ORIGINS: origin,
      },
      `Proxy server listening on 127.0.0.1:${proxyPort}`,
    );
    await start('client', clientEntry, { CLIENT_PORT: String(clientPort) }, `running at:\n   ${origin}`);
  } catch (error) {
    await close();
    throw error;
  }

  return {
    origin,
    proxyAddress,
    proxyToken,
    pageUrl(serverUrl) {
      const url = new URL(origin);
      url.searchParams.set('transport', 'streamable-http');
      url.searchParams.set('serverUrl', serverUrl);
      url.searchParams.set('MCP_PROXY_FULL_ADDRESS', proxyAddress);
      url.searchParams.set('MCP_PROXY_AUTH_TOKEN', proxyToken);
      return url.href;
    },
    output: () => output,
    close,
  };
}

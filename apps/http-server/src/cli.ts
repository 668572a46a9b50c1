import { parseArgs } from 'node:util';
import { createSearchMcpRuntime } from '@search-mcp/meta-tools';
import { ConfigError, createJsonLineLogger, logLevels, type LogLevel } from '@search-mcp/shared';
import { findAndLoadConfig } from '@search-mcp/shared/node';
import { allowedHostsFor } from './allowed-hosts.js';
import { loadOrCreateToken } from './generated-token.js';
import { buildHttpApp } from './http-app.js';
import type { AccessToken } from './token-verifier.js';

const version = '0.1.0';

const usage = `search-mcp-http: Search MCP over Streamable HTTP, with a REST API

Usage: search-mcp-http [--config PATH] [--host 127.0.0.1] [--port 3000] [--stateless]

Options:
  --config PATH            config file (default: $SEARCH_MCP_CONFIG, ./config/mcp-servers.json, ~/.config/search-mcp/config.json)
  --host HOST              address to bind (default 127.0.0.1: this machine only)
  --port PORT              default 3000
  --stateless              no sessions: a fresh MCP server per request (for several instances behind a load balancer)
  --mode meta|proxy        what tools/list shows (default: exposure.mode, else meta)
  --cors-origin URL        allow this browser origin (repeatable; CORS is off otherwise)
  --allowed-host NAME      a host name clients may use in Host (repeatable; loopback names are always allowed;
                           required to reach a server bound to 0.0.0.0 by name, e.g. behind a proxy)
  --rate-limit N           requests per minute per token (default 6000; 0 = off)
  --max-sessions N         open MCP sessions at most (default 100)
  --log-level LEVEL        debug | info | warn | error | silent (logs go to stderr)
  -h, --help`;

function fail(message: string, code = 2): never {
  process.stderr.write(`search-mcp-http: ${message}\n`);
  process.exit(code);
}

function parseCommandLine() {
  try {
    return parseArgs({
      args: process.argv.slice(2),
      strict: true,
      allowPositionals: false,
      options: {
        config: { type: 'string', short: 'c' },
        host: { type: 'string', default: '127.0.0.1' },
        port: { type: 'string', default: '3000' },
        stateless: { type: 'boolean', default: false },
        mode: { type: 'string' },
        'cors-origin': { type: 'string', multiple: true },
        'allowed-host': { type: 'string', multiple: true },
        'rate-limit': { type: 'string' },
        'max-sessions': { type: 'string' },
        'log-level': { type: 'string', default: 'info' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    }).values;
  } catch (error) {
    return fail(`${error instanceof Error ? error.message : String(error)}\n\n${usage}`);
  }
}

async function main(): Promise<void> {
  const values = parseCommandLine();
  if (values.help) {
    process.stdout.write(`${usage}\n`);
    return;
  }
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) fail('--port must be a number from 0 to 65535');
  if (values.mode !== undefined && values.mode !== 'meta' && values.mode !== 'proxy')
    fail('--mode must be meta or proxy');
  if (!logLevels.includes(values['log-level'] as LogLevel)) fail(`--log-level must be one of ${logLevels.join(', ')}`);
  const whole = (name: 'rate-limit' | 'max-sessions') => {
    const raw = values[name];
    if (raw === undefined) return undefined;
    const value = Number(raw);
    if (!Number.isInteger(value) || value < 0) fail(`--${name} must be a whole number`);
    return value;
  };

  const logger = createJsonLineLogger({
    level: values['log-level'] as LogLevel,
    write: (line) => process.stderr.write(line),
  });
  let loaded;
  try {
    loaded = await findAndLoadConfig({
      ...(values.config !== undefined ? { cliPath: values.config } : {}),
      env: process.env,
      cwd: process.cwd(),
    });
  } catch (error) {
    return fail(ConfigError.isInstance(error) ? error.message : String(error));
  }
  const { config, path: configPath } = loaded;

  let tokens: AccessToken[] = config.auth.tokens.map((token) => ({
    id: token.id,
    token: token.token,
    ...(token.projects ? { projects: token.projects } : {}),
  }));
  if (tokens.length === 0 && !config.auth.allowAnonymous) {
    const generated = loadOrCreateToken(configPath);
    tokens = [generated.token];
    if (generated.created) {
      process.stderr.write(
        `\nsearch-mcp-http: the config has no auth.tokens, so an access token was generated and saved to\n` +
          `  ${generated.file} (readable only by you). It is shown only this once:\n\n  ${generated.token.token}\n\n` +
          `Send it as "Authorization: Bearer <token>" (MCP clients: a header in their server config).\n\n`,
      );
    } else {
      logger.info('using the generated access token', { file: generated.file });
    }
  }
  const loopback = ['127.0.0.1', '::1', 'localhost'].includes(values.host ?? '');
  if (!loopback && config.auth.allowAnonymous)
    logger.warn('anonymous access on a non-loopback address: anyone who can reach it can run your tools', {
      host: values.host,
    });

  const runtime = createSearchMcpRuntime({
    config,
    logger,
    tokens: tokens.map((token) => ({ id: token.id, ...(token.projects ? { projects: token.projects } : {}) })),
    serverInfo: { name: 'search-mcp', version },
    ...(values.mode ? { mode: values.mode as 'meta' | 'proxy' } : {}),
  });
  const rateLimitPerMinute = whole('rate-limit');
  const maxSessions = whole('max-sessions');
  const { app } = await buildHttpApp({
    runtime,
    logger,
    tokens,
    allowAnonymous: config.auth.allowAnonymous,
    stateless: values.stateless ?? false,
    version,
    ...(values['cors-origin'] ? { corsOrigins: values['cors-origin'] } : {}),
    allowedHosts: allowedHostsFor(values.host ?? '127.0.0.1', values['allowed-host'] ?? []) ?? null,
    ...(rateLimitPerMinute !== undefined ? { rateLimitPerMinute } : {}),
    ...(maxSessions !== undefined ? { maxSessions } : {}),
  });

  let shuttingDown = false;
  const shutdown = async (signal: string) => {
    if (shuttingDown) {
      // A second signal means "now": do not wait for backends that ignore theirs.
      process.exit(0);
    }
    shuttingDown = true;
    logger.info('shutting down', { signal });
    const force = setTimeout(() => process.exit(0), 10_000);
    force.unref();
    await app.close().catch(() => {});
    await runtime.close().catch(() => {});
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  try {
    await app.listen({ host: values.host ?? '127.0.0.1', port });
  } catch (error) {
    await runtime.close();
    return fail(
      `cannot listen on ${values.host}:${port}: ${error instanceof Error ? error.message : String(error)}`,
      1,
    );
  }
  const address = app.server.address();
  const url =
    typeof address === 'object' && address
      ? `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`
      : String(address);
  logger.info('search-mcp-http listening', {
    url,
    mcp: `${url}/mcp`,
    config: configPath,
    mode: runtime.mode,
    stateless: values.stateless ?? false,
  });
  void runtime.manager.startAll();
}

main().catch((error: unknown) => {
  // An unwritable token file or audit folder, or anything else at start-up: one line, not a stack trace.
  fail(error instanceof Error ? error.message : String(error), 1);
});

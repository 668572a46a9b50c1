import { parseArgs } from 'node:util';
import { type LogLevel, logLevels } from '@search-mcp/shared';
import { httpAppDefaults } from './http-app-options.js';

export const usage = `search-mcp-http: Search MCP over Streamable HTTP, with a REST API

Usage: search-mcp-http [--config PATH] [--host 127.0.0.1] [--port 3000] [--stateless] [--no-watch]

Options:
  --config PATH            config file (default: $SEARCH_MCP_CONFIG, ./config/mcp-servers.json,
                           ~/.config/search-mcp/config.json)
  --host HOST              address to bind (default 127.0.0.1: this machine only)
  --port PORT              default 3000
  --stateless              no sessions: a fresh MCP server per request (for several instances behind a load balancer)
  --no-watch               apply edits of the config file only at a restart (default: servers, projects and search
                           settings apply live; auth is read at start only). Also SEARCH_MCP_WATCH=0
  --mode meta|proxy        what tools/list shows (default: exposure.mode, else meta)
  --cors-origin URL        allow this browser origin (repeatable; CORS is off otherwise)
  --allowed-host NAME      a host name clients may use in Host (repeatable; loopback names are always allowed;
                           required to reach a server bound to 0.0.0.0 by name, e.g. behind a proxy)
  --public-url URL         the URL clients reach this server at (e.g. https://search.example behind a TLS proxy):
                           OAuth redirects to backends come back to <URL>/oauth/callback (default: the URL the
                           request to POST /v1/servers/<id>/authorize was sent to)
  --rate-limit N           requests per minute per token (default ${httpAppDefaults.rateLimitPerMinute}; 0 = off)
  --max-sessions N         open MCP sessions at most (default ${httpAppDefaults.maxSessions})
  --max-sessions-per-token N
                           open MCP sessions at most per token (default: an equal share of --max-sessions per
                           token); a token at its cap replaces its oldest idle session
  --max-listen-streams N   open 2026-07-28 subscriptions/listen streams at most (default: --max-sessions)
  --max-listen-streams-per-token N
                           open listen streams at most per token (default: the per-token share of sessions)
  --shutdown-grace-ms N    on SIGTERM/SIGINT/SIGHUP, let calls in flight finish this long before answering them
                           503 (default ${httpAppDefaults.shutdownGraceMs})
  --drain-ms N             before that, once a probe has asked GET /readyz: answer it 503 and keep serving this
                           long, so a load balancer moves traffic away first (default ${httpAppDefaults.drainMs}; 0 = off)
  --log-level LEVEL        debug | info | warn | error | silent (logs go to stderr)
  -v, --version            print the version
  -h, --help`;

/** A wrong command line: printed with the usage, exit code 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

export interface CommandLine {
  command: 'serve' | 'help' | 'version';
  config?: string;
  host: string;
  port: number;
  stateless: boolean;
  /** Watch the config file and apply its edits live (false with `--no-watch`). */
  watch: boolean;
  mode?: 'meta' | 'proxy';
  corsOrigins: string[];
  allowedHosts: string[];
  /** `--public-url`, without a trailing slash. */
  publicUrl?: string;
  rateLimitPerMinute?: number;
  maxSessions?: number;
  maxSessionsPerToken?: number;
  maxListenStreams?: number;
  maxListenStreamsPerToken?: number;
  shutdownGraceMs?: number;
  drainMs?: number;
  logLevel: LogLevel;
}

/** `parseArgs` with this command's options. @throws UsageError */
function readArguments(args: readonly string[]) {
  try {
    return parseArgs({
      args: [...args],
      strict: true,
      allowPositionals: false,
      options: {
        config: { type: 'string', short: 'c' },
        host: { type: 'string', default: '127.0.0.1' },
        port: { type: 'string', default: '3000' },
        stateless: { type: 'boolean', default: false },
        'no-watch': { type: 'boolean', default: false },
        mode: { type: 'string' },
        'cors-origin': { type: 'string', multiple: true },
        'allowed-host': { type: 'string', multiple: true },
        'public-url': { type: 'string' },
        'rate-limit': { type: 'string' },
        'max-sessions': { type: 'string' },
        'max-sessions-per-token': { type: 'string' },
        'max-listen-streams': { type: 'string' },
        'max-listen-streams-per-token': { type: 'string' },
        'shutdown-grace-ms': { type: 'string' },
        'drain-ms': { type: 'string' },
        'log-level': { type: 'string', default: 'info' },
        version: { type: 'boolean', short: 'v', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    }).values;
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}

/** Parses and checks `search-mcp-http`'s arguments. @throws UsageError */
export function parseCommandLine(args: readonly string[]): CommandLine {
  const values = readArguments(args);
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new UsageError('--port must be a number from 0 to 65535');
  if (values.mode !== undefined && values.mode !== 'meta' && values.mode !== 'proxy') {
    throw new UsageError('--mode must be meta or proxy');
  }
  const logLevel = values['log-level'] as LogLevel;
  if (!logLevels.includes(logLevel)) throw new UsageError(`--log-level must be one of ${logLevels.join(', ')}`);
  const whole = (
    name:
      | 'rate-limit'
      | 'max-sessions'
      | 'max-sessions-per-token'
      | 'max-listen-streams'
      | 'max-listen-streams-per-token'
      | 'shutdown-grace-ms'
      | 'drain-ms',
    least = 0,
  ) => {
    const raw = values[name];
    if (raw === undefined) return undefined;
    const value = Number(raw);
    if (raw.trim() === '' || !Number.isInteger(value) || value < least) {
      throw new UsageError(`--${name} must be a whole number${least > 0 ? ` of at least ${least}` : ''}`);
    }
    return value;
  };
  const publicUrl = values['public-url'] !== undefined ? readPublicUrl(values['public-url']) : undefined;
  const rateLimitPerMinute = whole('rate-limit');
  const maxSessions = whole('max-sessions', 1);
  const maxSessionsPerToken = whole('max-sessions-per-token', 1);
  const maxListenStreams = whole('max-listen-streams', 1);
  const maxListenStreamsPerToken = whole('max-listen-streams-per-token', 1);
  const shutdownGraceMs = whole('shutdown-grace-ms');
  const drainMs = whole('drain-ms');
  return {
    command: values.help ? 'help' : values.version ? 'version' : 'serve',
    ...(values.config !== undefined ? { config: values.config } : {}),
    host: values.host ?? '127.0.0.1',
    port,
    stateless: values.stateless ?? false,
    watch: !(values['no-watch'] ?? false),
    ...(values.mode !== undefined ? { mode: values.mode as 'meta' | 'proxy' } : {}),
    corsOrigins: values['cors-origin'] ?? [],
    allowedHosts: values['allowed-host'] ?? [],
    ...(publicUrl !== undefined ? { publicUrl } : {}),
    ...(rateLimitPerMinute !== undefined ? { rateLimitPerMinute } : {}),
    ...(maxSessions !== undefined ? { maxSessions } : {}),
    ...(maxSessionsPerToken !== undefined ? { maxSessionsPerToken } : {}),
    ...(maxListenStreams !== undefined ? { maxListenStreams } : {}),
    ...(maxListenStreamsPerToken !== undefined ? { maxListenStreamsPerToken } : {}),
    ...(shutdownGraceMs !== undefined ? { shutdownGraceMs } : {}),
    ...(drainMs !== undefined ? { drainMs } : {}),
    logLevel,
  };
}

/** An http(s) URL without query or fragment (a base other URLs are built on), without its trailing slash. */
function readPublicUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UsageError('--public-url must be a URL, e.g. https://search.example');
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.search !== '' || url.hash !== '') {
    throw new UsageError('--public-url must be an http or https URL without a query or fragment');
  }
  return url.href.replace(/\/+$/, '');
}

/**
 * `search-mcp-web-search`: the stdio MCP server with `chatgpt_o3_search` (apps/web-search-server/README.md). Reads its
 * settings from the environment (as MCP clients pass them), logs JSON lines to stderr (stdout carries only the
 * protocol), and on stdin's end or a signal cancels the searches in flight at OpenAI before it exits.
 */
import { createRequire } from 'node:module';
import { parseArgs } from 'node:util';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import {
  createWebSearchService,
  webSearchDefaults,
  webSearchEnvironmentVariables,
  webSearchSettingsFromEnvironment,
  apiKeyProblem,
} from '@search-mcp/openai';
import { createJsonLineLogger, createSecretRedactor, errorMessage, logLevels, type LogLevel } from '@search-mcp/shared';
import { createWebSearchMcpServer } from './web-search-mcp-server.js';

const version = (createRequire(import.meta.url)('../package.json') as { version: string }).version;

/** Shutdown waits this long for the cancellations of running searches to reach OpenAI. */
const shutdownLimitMs = 10_000;

const usage = `search-mcp-web-search ${version}: an MCP server (stdio) with one tool, chatgpt_o3_search, that searches
the web with OpenAI o3 and its web search tool.

Usage: search-mcp-web-search [--log-level debug|info|warn|error|silent]
       search-mcp-web-search --version | --help

Environment:
${Object.entries(webSearchEnvironmentVariables)
  .map(([name, text]) => `  ${name.padEnd(28)} ${text}`)
  .join('\n')}
  LOG_LEVEL                    same as --log-level (default info)`;

function main(): void {
  let values: { 'log-level'?: string; version?: boolean; help?: boolean };
  try {
    ({ values } = parseArgs({
      options: {
        'log-level': { type: 'string' },
        version: { type: 'boolean', short: 'v' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    process.stderr.write(`search-mcp-web-search: ${errorMessage(error)}\n\n${usage}\n`);
    process.exit(2);
  }
  if (values.version) {
    process.stdout.write(`${version}\n`);
    return;
  }
  if (values.help) {
    process.stdout.write(`${usage}\n`);
    return;
  }
  const level = values['log-level'] ?? process.env['LOG_LEVEL'] ?? 'info';
  if (!(logLevels as readonly string[]).includes(level)) {
    process.stderr.write(`search-mcp-web-search: --log-level must be one of ${logLevels.join(', ')}\n`);
    process.exit(2);
  }
  void serve(level as LogLevel);
}

async function serve(level: LogLevel): Promise<void> {
  const settings = webSearchSettingsFromEnvironment(process.env);
  const logger = createJsonLineLogger({
    level,
    write: (line) => process.stderr.write(line),
    fields: { name: 'search-mcp-web-search' },
    // The library never logs the key; this masks it in every line all the same (any spelling, any field).
    redactor: createSecretRedactor(settings.openai?.apiKey ? [settings.openai.apiKey] : []),
  });
  const service = createWebSearchService({ ...settings, logger });

  // serveStdio picks the era from the client's first message (a 2025 `initialize`, or a 2026-07-28 request with its
  // `_meta` envelope) and pins one server from the factory to the connection.
  const connection = serveStdio((context) => createWebSearchMcpServer({ service, version, logger, era: context.era }), {
    onerror: (error) => logger.warn('protocol error', { error: errorMessage(error) }),
  });

  let closing = false;
  const shutdown = async (reason: string) => {
    if (closing) return;
    closing = true;
    logger.info('shutting down', { reason });
    const limit = setTimeout(() => process.exit(0), shutdownLimitMs);
    limit.unref();
    await service.close();
    await connection.close().catch(() => {});
    process.exit(0);
  };
  process.stdin.once('end', () => void shutdown('stdin closed'));
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));

  const keyProblem = apiKeyProblem(settings.openai?.apiKey);
  logger.info('started', {
    version,
    model: settings.model ?? webSearchDefaults.model,
    background: settings.background ?? webSearchDefaults.background,
    customEndpoint: settings.openai?.baseUrl !== undefined,
    apiKey: keyProblem ? `OPENAI_API_KEY ${keyProblem}` : 'set',
  });
  if (keyProblem) logger.warn(`OPENAI_API_KEY ${keyProblem}: every search answers with the setup steps`);
  for (const problem of settings.setupProblems ?? []) logger.warn(`setting ignored: ${problem}`);
}

main();

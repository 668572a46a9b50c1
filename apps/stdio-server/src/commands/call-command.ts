import { isServerVisibleToProject } from '@search-mcp/catalog';
import type { PrestartedServer } from '@search-mcp/client-manager/prestart';
import { errorMessage, isRecord, normalizeServerId, parseToolKey } from '@search-mcp/shared';
import type { CliArguments } from '../cli-arguments.js';
import type { CliLifecycle } from '../cli-lifecycle.js';
import { loadRuntime, printConfigWarnings, startServerWithProgress } from '../startup.js';
import { UsageError } from '../usage-error.js';
import { failureHint } from './failure-hints.js';
import { unknownServerError } from './unknown-server-error.js';

/**
 * `search-mcp call <toolKey> [JSON]`: runs one tool and prints its result; exit 1 when the tool reports an error.
 * Only the key's server is started (a slow or broken entry beside it costs nothing), and the command ends as soon as
 * the answer is printed. A server the config does not have is a usage error naming the servers (exit 2); a tool the
 * server does not list names its nearest tools (the catalog's not-found answer).
 */
export async function callCommand(
  cli: CliArguments,
  lifecycle: CliLifecycle,
  prestarted: readonly PrestartedServer[] = [],
): Promise<number> {
  const [toolKey, json] = cli.positionals as [string, string | undefined];
  const parsed = parseToolKey(toolKey.trim());
  if (!parsed) throw new UsageError(`"${toolKey}" is not a tool key: write server:tool, e.g. everything:echo`);
  const args = parseArguments(json);
  // The key's server may already be running (started by `cli.ts` before this module loaded): the runtime adopts it.
  const { runtime, config, configPath } = await loadRuntime(cli, 'error', lifecycle, prestarted);
  printConfigWarnings(config);
  const serverId = normalizeServerId(parsed.serverId) ?? parsed.serverId;
  if (!runtime.manager.serverIds.includes(serverId))
    throw unknownServerError(parsed.serverId, runtime.manager.serverIds, configPath);
  // A server the `--project` does not see is never started: the catalog refuses the call as it would over MCP.
  const visible = isServerVisibleToProject(config.mcpServers[serverId]?.projects, cli.project);
  try {
    if (visible) await startServerWithProgress(runtime, serverId);
  } catch (error) {
    // Why it did not start, and what to do about the common reasons (the same hints as `doctor`).
    const hint = failureHint(errorMessage(error));
    throw new Error(`${errorMessage(error)}${hint ? `\nfix: ${hint}` : ''}`, { cause: error });
  }
  const caller = cli.project !== undefined ? { projectId: cli.project } : {};
  const result = await runtime.catalog.execute(toolKey, args, caller, {
    onProgress: (progress) => {
      if (process.stderr.isTTY)
        process.stderr.write(
          `progress: ${progress.progress}${progress.total !== undefined ? `/${progress.total}` : ''}${progress.message ? ` ${progress.message}` : ''}\n`,
        );
    },
  });
  if (cli.json) {
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  } else {
    for (const part of result.content ?? []) {
      const block = part as { type?: string; text?: string; mimeType?: string; resource?: { uri?: string } };
      if (block.type === 'text') process.stdout.write(`${block.text ?? ''}\n`);
      else
        process.stdout.write(
          `[${block.type ?? 'content'}${block.mimeType ? ` ${block.mimeType}` : ''}${block.resource?.uri ? ` ${block.resource.uri}` : ''}]\n`,
        );
    }
    if (result.structuredContent !== undefined)
      process.stdout.write(`${JSON.stringify(result.structuredContent, null, 2)}\n`);
  }
  return result.isError ? 1 : 0;
}

/** The JSON object of the command line's second argument (none: no arguments). */
function parseArguments(json: string | undefined): Record<string, unknown> {
  if (json === undefined) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch (error) {
    throw new UsageError(`the arguments are not valid JSON: ${errorMessage(error)}`);
  }
  if (!isRecord(parsed)) throw new UsageError('the arguments must be a JSON object, e.g. \'{"path":"/tmp/a.txt"}\'');
  return parsed;
}

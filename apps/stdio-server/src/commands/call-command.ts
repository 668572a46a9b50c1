import { errorMessage, isRecord } from '@search-mcp/shared';
import type { CliArguments } from '../cli-arguments.js';
import type { CliLifecycle } from '../cli-lifecycle.js';
import { connectWithProgress, loadRuntime, printConfigWarnings } from '../startup.js';
import { UsageError } from '../usage-error.js';

/** `search-mcp call <toolKey> [JSON]`: runs one tool and prints its result; exit 1 when the tool reports an error. */
export async function callCommand(cli: CliArguments, lifecycle: CliLifecycle): Promise<number> {
  const [toolKey, json] = cli.positionals as [string, string | undefined];
  let args: Record<string, unknown> = {};
  if (json !== undefined) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(json);
    } catch (error) {
      throw new UsageError(`the arguments are not valid JSON: ${errorMessage(error)}`);
    }
    if (!isRecord(parsed)) throw new UsageError('the arguments must be a JSON object, e.g. \'{"path":"/tmp/a.txt"}\'');
    args = parsed;
  }
  const { runtime, config } = await loadRuntime(cli, 'error', lifecycle);
  printConfigWarnings(config);
  await connectWithProgress(runtime);
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

import type { CliArguments } from './cli-arguments.js';
import { UsageError } from './cli-arguments.js';
import { connectWithProgress, loadRuntime } from './startup.js';

export async function callCommand(cli: CliArguments): Promise<number> {
  const [toolKey, json] = cli.positionals as [string, string | undefined];
  let args: Record<string, unknown> = {};
  if (json !== undefined) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(json);
    } catch (error) {
      throw new UsageError(
        `the arguments are not valid JSON: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
      throw new UsageError('the arguments must be a JSON object, e.g. \'{"path":"/tmp/a.txt"}\'');
    args = parsed as Record<string, unknown>;
  }
  const { runtime } = await loadRuntime(cli, 'error');
  try {
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
  } finally {
    await runtime.close();
  }
}

import { createInterface } from 'node:readline/promises';
import { ApprovalChangedError, describeQuarantine } from '@search-mcp/catalog';
import { FilePinStore } from '@search-mcp/runtime';
import type { CliArguments } from '../cli-arguments.js';

/**
 * `search-mcp approve <server>[:tool] [--yes]` (docs/trust.md, "Pinning and quarantine"): shows what waits for the
 * server (or the one tool), field by field, asks, and pins exactly what it showed (by hash; a definition that changed
 * meanwhile is refused) in the state folder's `pins.json`. Running apps
 * (the HTTP app, a stdio server) read the file again when it changes: no restart. What waits is what an app or
 * `doctor` recorded when it listed the server's tools.
 */
export async function approveCommand(cli: CliArguments): Promise<number> {
  const target = cli.positionals[0] ?? '';
  const separator = target.indexOf(':');
  const serverId = separator === -1 ? target : target.slice(0, separator);
  const toolName = separator === -1 ? undefined : target.slice(separator + 1);
  const store = new FilePinStore();
  const server = store.server(serverId);
  const waiting = Object.entries(server?.pending ?? {}).filter(([name]) => toolName === undefined || name === toolName);
  if (waiting.length === 0) {
    process.stderr.write(
      `search-mcp: nothing waits for approval for ${target} (pins: ${store.path}). A changed tool is held when Search ` +
        'MCP lists its server: run search-mcp doctor to list every server now.\n',
    );
    return 1;
  }
  const lines = waiting.flatMap(([name, pending]) => {
    const pinned = server?.tools[name]?.definition;
    return describeQuarantine({
      toolKey: `${serverId}:${name}`,
      reason: pending.reason,
      ...(pending.changedFields ? { changedFields: pending.changedFields } : {}),
      ...(pending.findings ? { findings: pending.findings } : {}),
      ...(pinned ? { pinned } : {}),
      proposed: pending.definition,
    });
  });
  process.stdout.write(`${lines.join('\n')}\n`);
  if (!cli.yes) {
    if (!process.stdin.isTTY) {
      process.stderr.write(
        'search-mcp: approve asks before pinning, and stdin is not a terminal: pass --yes to approve without asking.\n',
      );
      return 1;
    }
    const prompt = createInterface({ input: process.stdin, output: process.stdout });
    const answer = await prompt.question(`Approve ${waiting.length} tool(s) of ${serverId}? [y/N] `);
    prompt.close();
    if (!/^y(es)?$/i.test(answer.trim())) {
      process.stdout.write('Nothing approved.\n');
      return 1;
    }
  }
  // Only what was displayed above: a definition that changed again while the question was open is not pinned unseen.
  const expected = Object.fromEntries(waiting.map(([name, pending]) => [name, pending.hash]));
  let approved: string[];
  try {
    approved = await store.approve(serverId, toolName, { expected });
  } catch (error) {
    if (!ApprovalChangedError.isInstance(error)) throw error;
    process.stderr.write(`search-mcp: ${error.message}: run search-mcp approve ${target} again.\n`);
    return 1;
  }
  process.stdout.write(
    `Approved ${approved.map((name) => `${serverId}:${name}`).join(', ')}. Running Search MCP apps use it at once.\n`,
  );
  return 0;
}

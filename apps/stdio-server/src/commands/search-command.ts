import type { HybridSearchReadiness } from '@search-mcp/runtime';
import { truncateText } from '@search-mcp/shared';
import type { CliArguments } from '../cli-arguments.js';
import type { CliLifecycle } from '../cli-lifecycle.js';
import { connectWithProgress, loadRuntime, printConfigWarnings } from '../startup.js';
import { formatTable } from '../terminal-output.js';
import { prepareHybridWithProgress } from './hybrid-preparation.js';
import { notConnectedNote } from './not-connected-note.js';
import { startUnlistedServers } from './start-unlisted-servers.js';

/**
 * `search-mcp search <query…> [--strategy S] [--fresh]`: ranks the visible tools as `tool_discovery` does and prints
 * the best, with the catalog's verdict (`match`, and a `notice` when nothing fits well). It searches each server's
 * tool list kept from an earlier run and starts only the servers without one (README, "Discovery before the servers
 * are up"), so it answers without waiting for every server to start; `--fresh` starts every server and searches their
 * live lists. `--strategy` overrides the config for this run; `hybrid` waits for its vectors first (with progress),
 * so the answer is hybrid's, not BM25's stand-in.
 */
export async function searchCommand(cli: CliArguments, lifecycle: CliLifecycle): Promise<number> {
  // A strategy asked for by name should say when it could not be used (no API key, no model): warnings are shown.
  const logLevel = cli.strategy !== undefined && cli.strategy !== 'bm25' ? 'warn' : 'error';
  const { runtime, config } = await loadRuntime(cli, logLevel, lifecycle);
  printConfigWarnings(config);
  if (cli.fresh) await connectWithProgress(runtime);
  else await startUnlistedServers(runtime);
  const caller = cli.project !== undefined ? { projectId: cli.project } : {};
  let hybrid: HybridSearchReadiness | undefined;
  // Nothing to embed without tools: the catalog says so without loading the model.
  if (runtime.catalog.strategyFor(caller) === 'hybrid' && (await runtime.catalog.visibleTools(caller)).length > 0) {
    hybrid = await prepareHybridWithProgress(runtime, caller);
    if (!hybrid.ready)
      process.stderr.write(`search-mcp: hybrid search is not available, BM25 answers: ${hybrid.reason}\n`);
  }
  const response = await runtime.catalog.search(
    { query: cli.positionals.join(' '), ...(cli.limit ? { maxResults: cli.limit } : {}) },
    caller,
  );
  const failed = runtime.manager
    .status()
    .filter((status) => status.state === 'failed' || status.state === 'needs-auth');
  if (cli.json) {
    const results = response.results.map(({ tool: _tool, ...hit }) => hit);
    const notConnected = failed.map((status) => ({ id: status.id, lastError: status.lastError }));
    const hybridReport = hybrid
      ? { hybrid: { ready: hybrid.ready, ...(hybrid.reason ? { reason: hybrid.reason } : {}) } }
      : {};
    process.stdout.write(`${JSON.stringify({ ...response, results, notConnected, ...hybridReport }, null, 2)}\n`);
    return 0;
  }
  if (response.strategy === 'off') process.stdout.write('Tool search is off for this project.\n');
  else if (response.results.length > 0) {
    const rows = response.results.map((hit, index) => [
      String(index + 1),
      hit.toolKey,
      hit.relevance.toFixed(2),
      truncateText(hit.description ?? '', 70),
    ]);
    process.stdout.write(`${formatTable(['#', 'tool key', 'relevance', 'description'], rows)}\n\n`);
  }
  // The verdict a model gets from tool_discovery: does the best hit fit, and if not, what to do.
  if (response.match !== 'good' && response.notice && response.strategy !== 'off')
    process.stdout.write(`Match: ${response.match}. ${response.notice}\n`);
  if (response.results.length > 0) {
    const answeredBy =
      response.providerId !== undefined && response.providerId !== response.strategy
        ? `strategy ${response.strategy}, answered by ${response.providerId}${response.fallbackReason ? `: ${response.fallbackReason}` : ''}`
        : `strategy ${response.strategy}`;
    process.stdout.write(
      `${response.toolCount} tools searched (${answeredBy}). Run one: search-mcp call ${response.results[0]?.toolKey} '{…}'\n`,
    );
  }
  const note = notConnectedNote(failed);
  if (note) process.stdout.write(`${note}\n`);
  return 0;
}

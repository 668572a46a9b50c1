import { type Caller, isServerAllowed, isServerVisibleToProject } from '@search-mcp/catalog';
import { errorMessage, type ToolCallResult, truncateText } from '@search-mcp/shared';
import { callerFields, errorFields } from '../audit/request-audit.js';
import { type DiscoveryResult, toDiscoveryResults } from '../discovery-response.js';
import { describeZodIssues, toolDiscoveryArguments } from '../meta-tool-arguments.js';
import type { RequestExtra } from '../request-extra-types.js';
import { failedServers, serversWithKeptLists, startingServerIds, waitForStartingServers } from '../starting-servers.js';
import { toErrorResult } from '../wire-errors.js';
import type { ServerStatusSource } from '../search-mcp-server-options.js';
import { startupWaitProgress } from '../startup-wait-progress.js';
import type { HandlerContext } from './handler-context.js';

/**
 * `tool_discovery`: searches the caller's visible tools and answers `{ results, notice? }` as structured content and
 * the same JSON as text. A server still starting is searched in the list kept from its last run, at once (its hits
 * say `serverStarting`); one without a kept list (the very first session) is waited for, at most `discoveryWaitMs`
 * (README, "Discovery before the servers are up"), with progress notifications when the client gave a token.
 * Failures of Search MCP itself are `isError` results a model can act on; a cancelled discovery is the SDK's to answer.
 */
export async function handleToolDiscovery(
  context: HandlerContext,
  args: unknown,
  caller: Caller,
  extra: RequestExtra,
): Promise<ToolCallResult> {
  const started = performance.now();
  const parsed = toolDiscoveryArguments.safeParse(args ?? {});
  if (!parsed.success) {
    context.audit(
      { event: 'tool_discovery', outcome: 'error', errorCode: 'VALIDATION_ERROR', ...callerFields(caller) },
      extra,
      started,
    );
    return toErrorResult(
      new Error(
        `Invalid tool_discovery arguments: ${describeZodIssues(parsed.error, 'arguments')}. Pass query as a string or an array of strings.`,
      ),
    );
  }
  const { query, context: taskContext, maxResults } = parsed.data;
  const queries = typeof query === 'string' ? [query] : query;
  try {
    // Only servers this caller's project could see: others are none of its business (not waited for, not named).
    const servers = context.catalog.config.mcpServers;
    const visible = (id: string) =>
      servers[id] !== undefined &&
      isServerVisibleToProject(servers[id].projects, caller.projectId) &&
      isServerAllowed(caller.access, caller.projectId, id);
    const exposure = context.exposure(caller);
    const kept = serversWithKeptLists((exposure instanceof Promise ? await exposure : exposure).tools);
    if (context.manager) await waitForUnlistedServers(context, context.manager, kept, visible, extra);
    const response = await context.catalog.search(
      {
        query: queries,
        signal: extra.signal,
        ...(taskContext !== undefined ? { context: taskContext } : {}),
        ...(maxResults !== undefined ? { maxResults } : {}),
      },
      caller,
    );
    const { results, shortened } = toDiscoveryResults(response.results, parsed.data.detail ?? 'summary');
    const structured: { results: DiscoveryResult[]; notice?: string } = { results };
    const starting = new Set(startingServerIds(context.manager).filter(visible));
    // Servers still starting whose kept list was searched: their hits say so, and a call waits for them.
    for (const result of results) if (starting.has(result.serverName)) result.serverStarting = true;
    const unlisted = [...starting].filter((id) => !kept.has(id));
    const notices: string[] = [];
    if (response.strategy === 'off') notices.push('Tool search is turned off for this project.');
    else if (starting.size > 0) {
      const listed = [...starting].filter((id) => !unlisted.includes(id));
      if (listed.length > 0)
        notices.push(
          `${listed.join(', ')} ${listed.length === 1 ? 'is' : 'are'} still starting (searched in ${listed.length === 1 ? 'its' : 'their'} last tool list); a call waits for ${listed.length === 1 ? 'it' : 'them'}.`,
        );
      if (unlisted.length > 0)
        notices.push(
          `Still connecting: ${unlisted.join(', ')}. Their tools are not searched yet; search again shortly.`,
        );
    }
    // The catalog's absolute match signal: no tool covers the request well (the best relevance is below 1 then).
    // Not while servers are still connecting: the tool may be theirs, and the notice above already says so.
    if (unlisted.length === 0 && response.strategy !== 'off' && response.match !== 'good' && response.notice)
      notices.push(response.notice);
    const failed = failedServers(context.manager, caller).filter(({ id }) => visible(id));
    if (response.strategy !== 'off' && failed.length > 0) {
      const reasons = failed.map(({ id, reason }) => (reason ? `${id} (${truncateText(reason, 120)})` : id));
      notices.push(`Not available: ${reasons.join('; ')}. Their tools cannot be found or run until this is fixed.`);
    }
    if (shortened)
      notices.push(
        'Lower results show only parameter names and types; search for one of them with detail "full" to see its whole input schema.',
      );
    if (notices.length > 0) structured.notice = notices.join(' ');
    context.audit(
      { event: 'tool_discovery', outcome: 'ok', queries, resultCount: results.length, ...callerFields(caller) },
      extra,
      started,
    );
    return { content: [{ type: 'text', text: JSON.stringify(structured) }], structuredContent: structured };
  } catch (error) {
    if (extra.signal.aborted) throw error;
    context.audit(
      { event: 'tool_discovery', outcome: 'error', queries, ...errorFields(error), ...callerFields(caller) },
      extra,
      started,
    );
    context.logger.warn('tool_discovery failed', { error: errorMessage(error) });
    return toErrorResult(error);
  }
}

/**
 * The very first session has no kept lists: the servers still starting without one are waited for, at most
 * `discoveryWaitMs`, so the first discovery finds their tools; a client that gave a progress token hears of the
 * wait every second. Servers with a kept list are not waited for: their list is searched at once; nor are those the
 * caller cannot see (`visible`).
 */
function waitForUnlistedServers(
  context: HandlerContext,
  manager: ServerStatusSource,
  kept: ReadonlySet<string>,
  visible: (id: string) => boolean,
  extra: RequestExtra,
): Promise<void> {
  const onWait = startupWaitProgress(extra._meta, extra);
  return waitForStartingServers(
    manager,
    context.discoveryWaitMs,
    extra.signal,
    (status) => !kept.has(status.id) && visible(status.id),
    onWait,
  );
}

import { type Caller, isServerAllowed, isServerVisibleToProject } from '@search-mcp/catalog';
import { errorMessage, type ToolCallResult, truncateText } from '@search-mcp/shared';
import { callerFields, errorFields } from '../audit/request-audit.js';
import { type DiscoveryResult, toDiscoveryResults } from '../discovery-response.js';
import { describeZodIssues, toolDiscoveryArguments } from '../meta-tool-arguments.js';
import type { RequestExtra } from '../request-extra-types.js';
import { failedServers, startingServerIds, waitForStartingServers } from '../starting-servers.js';
import { toErrorResult } from '../wire-errors.js';
import type { HandlerContext } from './handler-context.js';

/**
 * `tool_discovery`: searches the caller's visible tools (after a bounded wait for servers still starting) and
 * answers `{ results, notice? }` as structured content and the same JSON as text. Failures of Search MCP itself are
 * `isError` results a model can act on; a cancelled discovery is the SDK's to answer.
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
    if (context.manager) await waitForStartingServers(context.manager, context.startupWaitMs, extra.signal);
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
    const starting = startingServerIds(context.manager);
    const notices: string[] = [];
    if (response.strategy === 'off') notices.push('Tool search is turned off for this project.');
    else if (starting.length > 0)
      notices.push(`Still connecting: ${starting.join(', ')}. Their tools are not searched yet; search again shortly.`);
    // The catalog's absolute match signal: no tool covers the request well (the best relevance is below 1 then).
    // Not while servers are still connecting: the tool may be theirs, and the notice above already says so.
    else if (response.match !== 'good' && response.notice) notices.push(response.notice);
    // Only servers this caller's project could see: others are none of its business.
    const servers = context.catalog.config.mcpServers;
    const failed = failedServers(context.manager, caller).filter(
      ({ id }) =>
        servers[id] !== undefined &&
        isServerVisibleToProject(servers[id].projects, caller.projectId) &&
        isServerAllowed(caller.access, caller.projectId, id),
    );
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

/**
 * One `tools/call` of `chatgpt_o3_search`, transport-agnostic: arguments checked, the search run, and its outcome
 * or failure turned into a tool result (`content` a compact text a model reads, `structuredContent` the data).
 * Every failure of the search itself is an `isError` result carrying its JSON-RPC code
 * (apps/web-search-server/README.md, "The tool"), so the model can read and act on it; only arguments that break the
 * input schema throw (hosts answer JSON-RPC -32602).
 */
import { errorMessage } from '@search-mcp/shared';
import { redactSecrets } from '../client/secret-redaction.js';
import { WebSearchError } from './web-search-error.js';
import { parseWebSearchArguments } from './web-search-tool.js';
import type { WebSearchCallOptions, WebSearchOutcome, WebSearchService } from './web-search-types.js';

/** A `CallToolResult` (a type, not an interface, so that it fits the SDK's index-signature result type). */
export type WebSearchToolResult = {
  content: Array<{ type: 'text'; text: string }>;
  structuredContent: Record<string, unknown>;
  isError?: true;
};

/** @throws ValidationError when `args` do not match the tool's input schema. */
export async function callWebSearchTool(
  service: WebSearchService,
  args: unknown,
  options: WebSearchCallOptions = {},
): Promise<WebSearchToolResult> {
  const params = parseWebSearchArguments(args);
  try {
    return webSearchToolResult(await service.search(params, options));
  } catch (error) {
    return webSearchErrorResult(error);
  }
}

export function webSearchToolResult(outcome: WebSearchOutcome): WebSearchToolResult {
  const lines = [
    outcome.results.length === 0
      ? `No web results for "${outcome.query}".`
      : `${outcome.results.length} web result${outcome.results.length === 1 ? '' : 's'} for "${outcome.query}":`,
  ];
  outcome.results.forEach((result, index) => {
    lines.push('', `${index + 1}. ${result.title}`, `   ${result.url}`);
    const snippet = [result.snippet, result.publishedDate ? `(published ${result.publishedDate})` : '']
      .filter(Boolean)
      .join(' ');
    if (snippet) lines.push(`   ${snippet}`);
  });
  if (outcome.notice) lines.push('', `Note: ${outcome.notice}`);
  return {
    content: [{ type: 'text', text: lines.join('\n') }],
    structuredContent: { ...outcome },
  };
}

export function webSearchErrorResult(error: unknown): WebSearchToolResult {
  const failure = WebSearchError.isInstance(error)
    ? error
    : new WebSearchError({
        kind: 'internal',
        // Not expected (the service converts every failure); redacted all the same.
        message: `Internal error: ${redactSecrets(errorMessage(error), [])}`,
        cause: error,
      });
  const details = {
    code: failure.jsonRpcCode,
    kind: failure.kind,
    message: failure.message,
    ...(failure.retryAfterSeconds !== undefined ? { retryAfterSeconds: failure.retryAfterSeconds } : {}),
    ...(failure.status !== undefined ? { status: failure.status } : {}),
    ...(failure.requestId !== undefined ? { requestId: failure.requestId } : {}),
  };
  return {
    isError: true,
    content: [
      { type: 'text', text: `Web search failed (${failure.kind}, code ${failure.jsonRpcCode}): ${failure.message}` },
    ],
    structuredContent: { results: [], error: details },
  };
}

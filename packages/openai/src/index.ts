/**
 * `@search-mcp/openai`: one configured `openai` SDK client, the web search behind `search-mcp-web-search`
 * (`chatgpt_o3_search` on the Responses API with the hosted web search tool), and `LlmSearchProvider`, the LLM-ranked
 * tool search of `search.strategy: "llm"` (packages/openai/README.md).
 */
export { createOpenAiClient, openAiDefaults } from './client/openai-client.js';
export type { OpenAiClientSettings } from './client/openai-client.js';
export { apiKeyProblem } from './client/api-key.js';
export { redactSecrets } from './client/secret-redaction.js';

export { createWebSearchService, webSearchDefaults } from './web-search/web-search-service.js';
export type { SearchContextSize, WebSearchServiceSettings } from './web-search/web-search-service-settings.js';
export type {
  WebSearchCallOptions,
  WebSearchOutcome,
  WebSearchParams,
  WebSearchProgress,
  WebSearchResult,
  WebSearchService,
  WebSearchTimeframe,
} from './web-search/web-search-types.js';
export { WebSearchError, webSearchErrorCodes } from './web-search/web-search-error.js';
export type { WebSearchErrorKind } from './web-search/web-search-error.js';
export {
  parseWebSearchArguments,
  webSearchLimits,
  webSearchTimeframes,
  webSearchTool,
  webSearchToolName,
} from './web-search/web-search-tool.js';
export { callWebSearchTool, webSearchErrorResult, webSearchToolResult } from './web-search/web-search-tool-call.js';
export type { WebSearchToolResult } from './web-search/web-search-tool-call.js';
export {
  webSearchEnvironmentVariables,
  webSearchSettingsFromEnvironment,
} from './web-search/web-search-environment.js';
export type { Environment } from './web-search/web-search-environment.js';

export { LlmSearchProvider } from './llm/llm-search-provider.js';
export type { LlmSearchProviderOptions } from './llm/llm-search-provider.js';
export { createLlmSearchProvider } from './llm/create-llm-search-provider.js';
export type { CreateLlmSearchProviderOptions, LlmSearchSettings } from './llm/create-llm-search-provider.js';

/**
 * The web search's settings from environment variables, as MCP clients pass them (`env` of a server entry). An
 * empty value counts as unset (config templates often leave `""`). A wrong value becomes a setup problem the
 * searches report, not a crash at start: the client then shows the tool and the fix instead of "disconnected".
 * Problems name the variable and what it accepts, never the value (a key pasted into the wrong variable).
 */
import type { ReasoningEffort } from 'openai/resources/shared';
import type { WebSearchServiceSettings, SearchContextSize } from './web-search-service-settings.js';

export type Environment = Readonly<Record<string, string | undefined>>;

const reasoningEfforts = ['none', 'minimal', 'low', 'medium', 'high', 'xhigh'] as const;
const contextSizes = ['low', 'medium', 'high'] as const;

/** The variables read, for `--help` and READMEs. */
export const webSearchEnvironmentVariables = {
  OPENAI_API_KEY: 'API key (required for searches; the server starts without it and explains how to set it)',
  OPENAI_BASE_URL: 'OpenAI-compatible endpoint (default https://api.openai.com/v1)',
  OPENAI_ORG_ID: 'organization id, sent as a header when set',
  OPENAI_PROJECT_ID: 'project id, sent as a header when set',
  OPENAI_MODEL: 'model with the web_search tool (default o3)',
  REASONING_EFFORT: `${reasoningEfforts.join(' | ')} (default: the model's own)`,
  SEARCH_CONTEXT_SIZE: `${contextSizes.join(' | ')} (default: the API's, medium)`,
  WEB_SEARCH_TIMEOUT_MS: 'time limit of one search (default 300000 = 5 minutes)',
  WEB_SEARCH_POLL_INTERVAL_MS: 'pause between polls of a background search (default 2000)',
  WEB_SEARCH_BACKGROUND: 'true | false: background mode (default true; false for endpoints without it)',
  OPENAI_REQUEST_TIMEOUT_MS: 'time limit of each HTTP request (default 60000)',
  OPENAI_MAX_RETRIES: 'retries of a failed request: 429, 5xx, network errors, timeouts (default 2)',
  OPENAI_MAX_RETRY_AFTER_MS: 'longest Retry-After waited for before giving up (default 60000)',
} as const;

export function webSearchSettingsFromEnvironment(environment: Environment): WebSearchServiceSettings {
  const problems: string[] = [];
  const text = (name: string): string | undefined => {
    const value = environment[name];
    return value === undefined || value.trim() === '' ? undefined : value;
  };
  const oneOf = <Value extends string>(name: string, values: readonly Value[]): Value | undefined => {
    const value = text(name)?.trim().toLowerCase();
    if (value === undefined) return undefined;
    if ((values as readonly string[]).includes(value)) return value as Value;
    problems.push(`${name} must be one of ${values.join(', ')}`);
    return undefined;
  };
  const wholeNumber = (name: string, minimum: number): number | undefined => {
    const value = text(name)?.trim();
    if (value === undefined) return undefined;
    const number = Number(value);
    if (Number.isInteger(number) && number >= minimum) return number;
    problems.push(`${name} must be a whole number of ${minimum} or more`);
    return undefined;
  };
  const flag = (name: string): boolean | undefined => {
    const value = oneOf(name, ['true', 'false', '1', '0', 'yes', 'no']);
    return value === undefined ? undefined : ['true', '1', 'yes'].includes(value);
  };

  // The key is passed as it is (not trimmed): `apiKeyProblem` explains whitespace instead of hiding it.
  const apiKey = environment['OPENAI_API_KEY'];
  const baseUrl = text('OPENAI_BASE_URL')?.trim();
  const organization = text('OPENAI_ORG_ID')?.trim();
  const project = text('OPENAI_PROJECT_ID')?.trim();
  const requestTimeoutMs = wholeNumber('OPENAI_REQUEST_TIMEOUT_MS', 1);
  const maxRetries = wholeNumber('OPENAI_MAX_RETRIES', 0);
  const maxRetryAfterMs = wholeNumber('OPENAI_MAX_RETRY_AFTER_MS', 0);
  const model = text('OPENAI_MODEL')?.trim();
  const reasoningEffort = oneOf<Exclude<ReasoningEffort, null>>('REASONING_EFFORT', reasoningEfforts);
  const searchContextSize = oneOf<SearchContextSize>('SEARCH_CONTEXT_SIZE', contextSizes);
  const timeoutMs = wholeNumber('WEB_SEARCH_TIMEOUT_MS', 1);
  const pollIntervalMs = wholeNumber('WEB_SEARCH_POLL_INTERVAL_MS', 0);
  const background = flag('WEB_SEARCH_BACKGROUND');
  if (baseUrl !== undefined && !/^https?:\/\/[^\s]+$/i.test(baseUrl)) {
    problems.push('OPENAI_BASE_URL must be an http:// or https:// URL');
  }

  return {
    openai: {
      ...(apiKey !== undefined ? { apiKey } : {}),
      ...(baseUrl !== undefined ? { baseUrl } : {}),
      ...(organization !== undefined ? { organization } : {}),
      ...(project !== undefined ? { project } : {}),
      ...(requestTimeoutMs !== undefined ? { requestTimeoutMs } : {}),
      ...(maxRetries !== undefined ? { maxRetries } : {}),
      ...(maxRetryAfterMs !== undefined ? { maxRetryAfterMs } : {}),
    },
    ...(model !== undefined ? { model } : {}),
    ...(reasoningEffort !== undefined ? { reasoningEffort } : {}),
    ...(searchContextSize !== undefined ? { searchContextSize } : {}),
    ...(timeoutMs !== undefined ? { timeoutMs } : {}),
    ...(pollIntervalMs !== undefined ? { pollIntervalMs } : {}),
    ...(background !== undefined ? { background } : {}),
    ...(problems.length > 0 ? { setupProblems: problems } : {}),
  };
}

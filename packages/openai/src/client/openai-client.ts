import { ConfigError, silentLogger, type Logger } from '@search-mcp/shared';
import OpenAI from 'openai';
import { apiKeyProblem } from './api-key.js';
import { fetchWithRetryAfterLimit } from './retry-after.js';
import { sdkLogger } from './sdk-logger.js';

export const openAiDefaults = {
  baseUrl: 'https://api.openai.com/v1',
  /** Per HTTP request. Background searches are polled, so no single request waits for the model. */
  requestTimeoutMs: 60_000,
  /** Retries after the first attempt: three attempts in all (packages/openai/README.md, "The client"). */
  maxRetries: 2,
  /** A longer `Retry-After` is not waited for: the call fails at once, naming the wait. */
  maxRetryAfterMs: 60_000,
} as const;

export interface OpenAiClientSettings {
  /** `OPENAI_API_KEY`. Checked only for what cannot be a key (empty, whitespace, quotes); never logged. */
  apiKey: string;
  /** `OPENAI_BASE_URL`: any OpenAI-compatible endpoint. Default `https://api.openai.com/v1`. */
  baseUrl?: string;
  /** `OPENAI_ORG_ID` / `OPENAI_PROJECT_ID`, sent as headers when set. */
  organization?: string;
  project?: string;
  /** Time limit of each HTTP request (each attempt). Default 60,000 ms. */
  requestTimeoutMs?: number;
  /** How often a failed request is retried (429, 408, 409, 5xx, network errors, timeouts). Default 2. */
  maxRetries?: number;
  /** The longest `Retry-After` that is waited for. Default 60,000 ms. */
  maxRetryAfterMs?: number;
  /** The fetch the SDK uses; the global one by default. */
  fetch?: typeof fetch;
  logger?: Logger;
}

/**
 * One configured `openai` SDK client: key, endpoint, timeout and retries. Retries, exponential backoff and
 * `Retry-After` are the SDK's own (`maxRetries`, see `retry-after.ts` for the one limit added). The settings are
 * taken as given: nothing is read from the environment here (the SDK would otherwise pick up `OPENAI_BASE_URL`,
 * `OPENAI_ORG_ID`, `OPENAI_LOG` behind the caller's back); `openAiSettingsFromEnvironment` does that for apps.
 *
 * @throws ConfigError when the key cannot be a key or the base URL is not an http(s) URL (neither value is quoted).
 */
export function createOpenAiClient(settings: OpenAiClientSettings): OpenAI {
  const keyProblem = apiKeyProblem(settings.apiKey);
  const issues = keyProblem ? [{ path: 'apiKey', message: `the API key ${keyProblem}` }] : [];
  const baseUrl = settings.baseUrl ?? openAiDefaults.baseUrl;
  if (!isHttpUrl(baseUrl)) issues.push({ path: 'baseUrl', message: 'expected an http:// or https:// URL' });
  for (const name of ['requestTimeoutMs', 'maxRetries', 'maxRetryAfterMs'] as const) {
    const value = settings[name];
    const minimum = name === 'requestTimeoutMs' ? 1 : 0;
    if (value !== undefined && !(Number.isInteger(value) && value >= minimum)) {
      issues.push({ path: name, message: `expected a whole number of ${minimum} or more` });
    }
  }
  if (issues.length > 0) throw new ConfigError({ issues });

  const logger = settings.logger ?? silentLogger;
  return new OpenAI({
    apiKey: settings.apiKey,
    baseURL: baseUrl,
    organization: settings.organization ?? null,
    project: settings.project ?? null,
    adminAPIKey: null,
    webhookSecret: null,
    timeout: settings.requestTimeoutMs ?? openAiDefaults.requestTimeoutMs,
    maxRetries: settings.maxRetries ?? openAiDefaults.maxRetries,
    fetch: fetchWithRetryAfterLimit(
      settings.fetch ?? globalThis.fetch,
      settings.maxRetryAfterMs ?? openAiDefaults.maxRetryAfterMs,
    ),
    logger: sdkLogger(logger, [settings.apiKey]),
    logLevel: 'info',
  });
}

function isHttpUrl(value: string): boolean {
  try {
    const { protocol } = new URL(value);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}

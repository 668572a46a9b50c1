import { describe, expect, it } from 'vitest';
import { webSearchSettingsFromEnvironment } from './web-search-environment.js';

describe('webSearchSettingsFromEnvironment', () => {
  it('reads every variable', () => {
    expect(
      webSearchSettingsFromEnvironment({
        OPENAI_API_KEY: 'sk-proj-abc',
        OPENAI_BASE_URL: 'http://127.0.0.1:8080/v1',
        OPENAI_ORG_ID: 'org-1',
        OPENAI_PROJECT_ID: 'proj_1',
        OPENAI_MODEL: 'o4-mini',
        REASONING_EFFORT: 'High',
        SEARCH_CONTEXT_SIZE: 'low',
        WEB_SEARCH_TIMEOUT_MS: '600000',
        WEB_SEARCH_POLL_INTERVAL_MS: '500',
        WEB_SEARCH_BACKGROUND: 'false',
        OPENAI_REQUEST_TIMEOUT_MS: '30000',
        OPENAI_MAX_RETRIES: '0',
        OPENAI_MAX_RETRY_AFTER_MS: '10000',
      }),
    ).toEqual({
      openai: {
        apiKey: 'sk-proj-abc',
        baseUrl: 'http://127.0.0.1:8080/v1',
        organization: 'org-1',
        project: 'proj_1',
        requestTimeoutMs: 30_000,
        maxRetries: 0,
        maxRetryAfterMs: 10_000,
      },
      model: 'o4-mini',
      reasoningEffort: 'high',
      searchContextSize: 'low',
      timeoutMs: 600_000,
      pollIntervalMs: 500,
      background: false,
    });
  });

  it('treats empty values as unset, so an empty template still starts with the defaults', () => {
    expect(
      webSearchSettingsFromEnvironment({ OPENAI_MODEL: '', REASONING_EFFORT: ' ', WEB_SEARCH_TIMEOUT_MS: '' }),
    ).toEqual({ openai: {} });
  });

  it('reports wrong values by variable and what it accepts, never the value', () => {
    const secretLooking = 'sk-proj-pasted-into-the-wrong-variable';
    const settings = webSearchSettingsFromEnvironment({
      REASONING_EFFORT: secretLooking,
      SEARCH_CONTEXT_SIZE: 'huge',
      WEB_SEARCH_TIMEOUT_MS: '5 minutes',
      OPENAI_MAX_RETRIES: '-1',
      WEB_SEARCH_BACKGROUND: 'maybe',
      OPENAI_BASE_URL: 'api.example.com',
    });
    expect(settings.setupProblems).toEqual([
      'OPENAI_MAX_RETRIES must be a whole number of 0 or more',
      'REASONING_EFFORT must be one of none, minimal, low, medium, high, xhigh',
      'SEARCH_CONTEXT_SIZE must be one of low, medium, high',
      'WEB_SEARCH_TIMEOUT_MS must be a whole number of 1 or more',
      'WEB_SEARCH_BACKGROUND must be one of true, false, 1, 0, yes, no',
      'OPENAI_BASE_URL must be an http:// or https:// URL',
    ]);
    expect(JSON.stringify(settings)).not.toContain(secretLooking);
  });

  it('passes the key on untrimmed, so its whitespace is explained instead of hidden', () => {
    expect(webSearchSettingsFromEnvironment({ OPENAI_API_KEY: 'sk-abc\n' }).openai?.apiKey).toBe('sk-abc\n');
  });
});

/**
 * What went wrong with an OpenAI request, in words a user can act on. The one place that reads the SDK's error
 * classes; the web search (`WebSearchError`) and the LLM ranker (`SearchProviderError`) build their errors from it.
 * Messages are redacted: an API error may quote the key, and the base URL may carry credentials.
 */
import { errorMessage } from '@search-mcp/shared';
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
  AuthenticationError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
} from 'openai';
import { retryAfterMs, retryAfterOverLimitHeader } from './retry-after.js';
import { redactSecrets } from './secret-redaction.js';

export type OpenAiFailureKind =
  | 'authentication'
  | 'permission'
  | 'not-found'
  | 'rate-limit'
  | 'quota'
  | 'bad-request'
  | 'server'
  | 'timeout'
  | 'connection'
  | 'cancelled'
  | 'invalid-response'
  | 'unknown';

export interface OpenAiFailure {
  kind: OpenAiFailureKind;
  /** What happened and what to do, redacted. */
  message: string;
  /** HTTP status of the last answer, when there was one. */
  status?: number;
  /** The wait the last 429/5xx asked for (`Retry-After`), in seconds. */
  retryAfterSeconds?: number;
  /** OpenAI's `x-request-id`, for support requests. */
  requestId?: string;
}

export interface OpenAiFailureContext {
  /** Strings to remove from messages: the API key. */
  secrets: readonly string[];
  baseUrl: string;
  /** The client's `maxRetries`, to say how many attempts were made. */
  maxRetries: number;
  requestTimeoutMs: number;
  /** The model the request named, for 403/404. */
  model?: string;
  /** Where the user sets the key, model and endpoint. Default: the environment variables of the web search server. */
  settingNames?: SettingNames;
}

export interface SettingNames {
  apiKey: string;
  model: string;
  baseUrl: string;
}

const environmentSettingNames: SettingNames = {
  apiKey: 'OPENAI_API_KEY',
  model: 'OPENAI_MODEL',
  baseUrl: 'OPENAI_BASE_URL',
};

const keysPage = 'https://platform.openai.com/api-keys';
const limitsPage = 'https://platform.openai.com/settings/organization/limits';
const billingPage = 'https://platform.openai.com/settings/organization/billing';

export function describeOpenAiFailure(error: unknown, context: OpenAiFailureContext): OpenAiFailure {
  const redact = (text: string) => redactSecrets(text, context.secrets);
  const endpoint = displayUrl(context.baseUrl);
  const attempts = context.maxRetries + 1;
  const model = context.model ? ` '${context.model}'` : '';
  const names = context.settingNames ?? environmentSettingNames;

  if (error instanceof APIUserAbortError) return { kind: 'cancelled', message: 'The request was cancelled.' };
  if (error instanceof APIConnectionTimeoutError) {
    return {
      kind: 'timeout',
      message: `${endpoint} did not answer within ${context.requestTimeoutMs} ms, on all ${attempts} attempts.`,
    };
  }
  if (error instanceof APIConnectionError) {
    return {
      kind: 'connection',
      message: redact(
        `Could not reach ${endpoint} (${describeCause(error)}) on all ${attempts} attempts. ` +
          `Check the network or proxy, and ${names.baseUrl} if you set it.`,
      ),
    };
  }
  if (error instanceof APIError) {
    const status = typeof error.status === 'number' ? error.status : undefined;
    const apiMessage = redact(apiErrorText(error));
    const said = apiMessage ? ` OpenAI said: ${apiMessage}` : '';
    const base = {
      ...(status !== undefined ? { status } : {}),
      ...(error.requestID ? { requestId: error.requestID } : {}),
    };
    if (error instanceof AuthenticationError) {
      // OpenAI's own 401 text quotes (a masked form of) the key; ours says what to do instead.
      return {
        ...base,
        kind: 'authentication',
        message:
          `The API key was rejected (HTTP 401 from ${endpoint}). Check ${names.apiKey}: it may be mistyped, ` +
          `revoked, or meant for another endpoint. Create or copy a key at ${keysPage}.`,
      };
    }
    if (error instanceof PermissionDeniedError) {
      return {
        ...base,
        kind: 'permission',
        message:
          `Access to the model${model} was refused (HTTP 403).${said} Your project may not be allowed to use ` +
          'this model (some need a verified organization or a higher usage tier): choose another with ' +
          `${names.model}, or check the project's model permissions.`,
      };
    }
    if (error instanceof NotFoundError) {
      return {
        ...base,
        kind: 'not-found',
        message:
          `The model${model} was not found, or your key has no access to it (HTTP 404 from ${endpoint}).${said} ` +
          `Set ${names.model} to a model your project can use, and check ${names.baseUrl} if you set it.`,
      };
    }
    if (error instanceof RateLimitError) {
      if (error.code === 'insufficient_quota' || error.type === 'insufficient_quota') {
        return {
          ...base,
          kind: 'quota',
          message: `The OpenAI quota is used up (HTTP 429 insufficient_quota). Add credit or raise the limit at ${billingPage}.`,
        };
      }
      return { ...base, ...rateLimitFailure(error, attempts, said) };
    }
    if (status !== undefined && (status >= 500 || status === 408 || status === 409)) {
      const wait = retryAfterMs(error.headers);
      return {
        ...base,
        ...(wait !== undefined ? { retryAfterSeconds: Math.ceil(wait / 1000) } : {}),
        kind: 'server',
        message:
          `OpenAI answered HTTP ${status} on all ${attempts} attempts.${said} This is on OpenAI's side: ` +
          'try again in a minute (https://status.openai.com lists outages).',
      };
    }
    return {
      ...base,
      kind: 'bad-request',
      message: `OpenAI rejected the request (HTTP ${status ?? 'error'}).${said}`,
    };
  }
  if (error instanceof SyntaxError) {
    return {
      kind: 'invalid-response',
      message: redact(`${endpoint} answered with something that is not JSON (${error.message}).`),
    };
  }
  return { kind: 'unknown', message: redact(errorMessage(error)) };
}

function rateLimitFailure(error: APIError, attempts: number, said: string): Omit<OpenAiFailure, 'status'> {
  const wait = retryAfterMs(error.headers);
  const seconds = wait === undefined ? undefined : Math.ceil(wait / 1000);
  const overLimit = error.headers?.get(retryAfterOverLimitHeader) === 'true';
  const gaveUp = overLimit
    ? `OpenAI asked to wait ${seconds} s before trying again, longer than this server waits, so it did not retry.`
    : `It gave up after ${attempts} attempts${seconds !== undefined ? `; OpenAI last asked to wait ${seconds} s` : ''}.`;
  return {
    kind: 'rate-limit',
    ...(seconds !== undefined ? { retryAfterSeconds: seconds } : {}),
    message: `OpenAI's rate limit was reached (HTTP 429). ${gaveUp}${said} Try again later, or see your limits at ${limitsPage}.`,
  };
}

/** The `message` of an OpenAI error body (`{ error: { message } }`), else the SDK's message without its status prefix. */
function apiErrorText(error: APIError): string {
  const body = error.error as { message?: unknown } | undefined;
  if (body && typeof body.message === 'string') return body.message.trim();
  return error.message.replace(/^\d{3}\s+/, '').replace(/^status code \(no body\)$/, '');
}

/** The cause's system error code (`fetch failed (ECONNREFUSED)`), which says more than "Connection error." */
function describeCause(error: APIConnectionError): string {
  let cause: unknown = error.cause;
  for (let depth = 0; depth < 4 && cause instanceof Error; depth += 1) {
    const code = (cause as { code?: unknown }).code;
    if (typeof code === 'string') return `${cause.message} (${code})`;
    cause = cause.cause;
  }
  return error.cause ? errorMessage(error.cause) : error.message;
}

/** The URL without credentials, query or fragment: safe to show. */
export function displayUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}${parsed.pathname.replace(/\/+$/, '')}`;
  } catch {
    return 'the configured endpoint';
  }
}

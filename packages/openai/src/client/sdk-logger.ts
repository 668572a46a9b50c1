import type { Logger } from '@search-mcp/shared';
import type { ClientOptions } from 'openai';
import { redactSecrets } from './secret-redaction.js';

type SdkLogger = NonNullable<ClientOptions['logger']>;

/**
 * The SDK's log lines, sent to our logger instead of `console` (stdout belongs to the protocol in stdio mode).
 * Its `info` lines (one per request and per retry: "retrying, 1 attempts remaining") go to `debug`; its details
 * objects are dropped (they hold request options), and every line is redacted.
 */
export function sdkLogger(logger: Logger, secrets: readonly string[]): SdkLogger {
  const line = (message: string) => redactSecrets(String(message), secrets);
  return {
    error: (message) => logger.error(`openai: ${line(message)}`),
    warn: (message) => logger.warn(`openai: ${line(message)}`),
    info: (message) => logger.debug(`openai: ${line(message)}`),
    debug: (message) => logger.debug(`openai: ${line(message)}`),
  };
}

import { type LogFields, type Logger, noSecrets, type SecretRedactor } from '@search-mcp/shared';

/**
 * A logger that masks configured secrets in the message and every field before they reach `logger`, whatever logger the
 * host passed in (packages/client-manager/README.md, "Behaviour": secrets never appear in logs). Masking twice (a host
 * logger that also redacts) changes nothing.
 */
export function createRedactingLogger(logger: Logger, redactor: SecretRedactor): Logger {
  if (redactor === noSecrets) return logger;
  const mask = (fields: LogFields | undefined) => (fields === undefined ? undefined : redactor.redactDeep(fields));
  return {
    debug: (message, fields) => logger.debug(redactor.redact(message), mask(fields)),
    info: (message, fields) => logger.info(redactor.redact(message), mask(fields)),
    warn: (message, fields) => logger.warn(redactor.redact(message), mask(fields)),
    error: (message, fields) => logger.error(redactor.redact(message), mask(fields)),
    child: (fields) => createRedactingLogger(logger.child(redactor.redactDeep(fields)), redactor),
  };
}

import { noSecrets, type SecretRedactor } from '../secrets/secret-redactor.js';

/**
 * The logger every package accepts. Libraries never write on their own: hosts inject one (stdout belongs to the
 * MCP protocol in stdio mode, so the apps log JSON lines to stderr).
 */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';

export type LogFields = Record<string, unknown>;

export interface Logger {
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
  /** A logger that adds `fields` to every record. */
  child(fields: LogFields): Logger;
}

const levelRank: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

export const logLevels: readonly LogLevel[] = ['debug', 'info', 'warn', 'error', 'silent'];

export interface JsonLineLoggerOptions {
  /** Minimum level written; default `info`. */
  level?: LogLevel;
  /** Where a finished line (with trailing newline) goes, e.g. `(line) => process.stderr.write(line)`. */
  write: (line: string) => void;
  /** Fields on every record. */
  fields?: LogFields;
  /** Clock, for tests. */
  now?: () => Date;
  /**
   * Masks secrets in the message and in every string of every field, at every depth (bound `fields` of children
   * included), before the line is written. Build it with `createSecretRedactor(collectConfigSecrets(config))`.
   */
  redactor?: SecretRedactor;
}

/** A logger that writes one JSON object per line: `{ time, level, msg, ...fields }`. */
export function createJsonLineLogger(options: JsonLineLoggerOptions): Logger {
  const minimum = levelRank[options.level ?? 'info'];
  const now = options.now ?? (() => new Date());
  const base = options.fields ?? {};
  const redactor = options.redactor ?? noSecrets;
  const replacer = redactor === noSecrets ? errorReplacer : redactingReplacer(redactor);

  const make = (bound: LogFields): Logger => {
    const emit = (level: Exclude<LogLevel, 'silent'>, message: string, fields?: LogFields) => {
      if (levelRank[level] < minimum) return;
      const record = { time: now().toISOString(), level, msg: message, ...bound, ...fields };
      let line: string;
      try {
        line = JSON.stringify(record, replacer);
      } catch {
        const msg = redactor.redact(message);
        line = JSON.stringify({ time: record.time, level, msg, note: 'fields not serializable' });
      }
      options.write(`${line}\n`);
    };
    return {
      debug: (message, fields) => emit('debug', message, fields),
      info: (message, fields) => emit('info', message, fields),
      warn: (message, fields) => emit('warn', message, fields),
      error: (message, fields) => emit('error', message, fields),
      child: (fields) => make({ ...bound, ...fields }),
    };
  };
  return make(base);
}

// Errors serialize to `{}` by default; keep what helps and drop `cause` (it may carry a backend's secrets).
function errorReplacer(_key: string, value: unknown): unknown {
  if (value instanceof Error) {
    const code = (value as { code?: unknown }).code;
    return { name: value.name, message: value.message, ...(code !== undefined ? { code } : {}) };
  }
  return value;
}

/**
 * Redacts every string JSON.stringify meets (it calls the replacer again for the members of what the replacer
 * returns, so an error's message is masked too).
 */
function redactingReplacer(redactor: SecretRedactor) {
  return (key: string, value: unknown): unknown => {
    const replaced = errorReplacer(key, value);
    return typeof replaced === 'string' ? redactor.redact(replaced) : replaced;
  };
}

/** A logger that drops everything. */
export const silentLogger: Logger = {
  debug: () => {},
  info: () => {},
  warn: () => {},
  error: () => {},
  child: () => silentLogger,
};

import { type LoggingLevel, loggingLevels } from '@search-mcp/shared';

const severity = new Map(loggingLevels.map((level, index) => [level, index]));

/** Whether a message at `level` is at `wanted` or more severe (the spec's order, `debug` … `emergency`). */
export function isAtLeast(level: LoggingLevel, wanted: LoggingLevel): boolean {
  return (severity.get(level) ?? loggingLevels.length) >= (severity.get(wanted) ?? 0);
}

/**
 * The log level each session asked for. A session that set none gets everything (the spec leaves the default to the
 * server; the backend's own default already filtered). Backends are told the most verbose level any session wants,
 * so each session still gets what it asked for and we filter per session.
 */
export class LogLevels {
  private readonly levels = new Map<string, LoggingLevel>();

  /** Records a session's level; returns the level backends should have now. */
  set(sessionKey: string, level: LoggingLevel): LoggingLevel {
    this.levels.set(sessionKey, level);
    return this.backendLevel() ?? level;
  }

  /** Forgets a closed session; returns the backend level now, undefined when no session set one. */
  delete(sessionKey: string): LoggingLevel | undefined {
    this.levels.delete(sessionKey);
    return this.backendLevel();
  }

  /** Whether a message at `level` goes to this session. */
  passes(sessionKey: string, level: LoggingLevel): boolean {
    const wanted = this.levels.get(sessionKey);
    return wanted === undefined || isAtLeast(level, wanted);
  }

  /** The most verbose level any session asked for. */
  backendLevel(): LoggingLevel | undefined {
    let lowest: LoggingLevel | undefined;
    for (const level of this.levels.values()) {
      if (lowest === undefined || (severity.get(level) ?? 0) < (severity.get(lowest) ?? 0)) lowest = level;
    }
    return lowest;
  }
}

/** RFC 5424 severities as MCP names them, least severe first (the SDK's `LoggingLevel`). */
export const loggingLevels = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'] as const;

export type LoggingLevel = (typeof loggingLevels)[number];

const known: ReadonlySet<string> = new Set(loggingLevels);

export function isLoggingLevel(value: unknown): value is LoggingLevel {
  return typeof value === 'string' && known.has(value);
}

import { authorizeCommand, ServerNotRunningError, TimeoutError } from '@search-mcp/shared';
import type { ProcessExit, ProcessTransport } from '../process/process-transport.js';
import { toBackendFailure } from './backend-error-mapping.js';
import { explainRemoteFailure } from './network-failure.js';
import { type ProtocolErrors, unsupportedProtocolVersionCode } from './protocol-errors.js';

/** The words for how a server process ended: `exit code 3`, `killed by SIGKILL`, … */
export function describeExit(exit: ProcessExit | undefined): string | undefined {
  if (!exit) return undefined;
  if (exit.servingPid !== undefined) {
    return `its server process ${exit.servingPid} ended while the command that started it kept running`;
  }
  return exit.signal ? `killed by ${exit.signal}` : `exit code ${exit.code}`;
}

/** `; stderr: last | lines` from the server's stderr tail, or nothing. */
export function stderrSummary(process: ProcessTransport | undefined): string {
  const lines = process?.recentStderr().filter((line) => line.trim() !== '') ?? [];
  if (lines.length === 0) return '';
  return `; stderr: ${lines.slice(-5).join(' | ')}`;
}

/** `lastError` of a server whose connection ended while it was running. */
export function connectionLostMessage(process: ProcessTransport | undefined): string {
  const detail = describeExit(process?.exit);
  return `connection closed unexpectedly${detail ? ` (${detail})` : ''}${stderrSummary(process)}`;
}

/** A call to a server waiting for an OAuth login: not retryable, and the message names the command (docs/oauth.md). */
export function needsAuthorizationFailure(serverId: string, lastError: string | undefined): ServerNotRunningError {
  return new ServerNotRunningError({
    serverId,
    state: 'needs-auth',
    isRetryable: false,
    message: lastError ?? `MCP server '${serverId}' needs OAuth authorization: run \`${authorizeCommand(serverId)}\``,
  });
}

/** `lastError` after the last allowed restart failed. */
export function gaveUpMessage(lastError: string | undefined, maxAttempts: number): string {
  return `${lastError ?? 'crashed'}; gave up after ${maxAttempts} restarts`;
}

/** The error of a server whose config entry is broken (e.g. an unset variable): it is never started. */
export function configErrorFailure(serverId: string, reason: string): ServerNotRunningError {
  return new ServerNotRunningError({
    serverId,
    state: 'failed',
    // Retrying cannot help until the config is fixed: the model must not be told to try again shortly.
    isRetryable: false,
    message: `MCP server '${serverId}' is not started: its configuration is invalid: ${reason}`,
  });
}

export interface StartFailureContext {
  serverId: string;
  error: unknown;
  timeoutMs: number;
  /** Aborted when `startupTimeoutMs` ran out. */
  deadline: AbortSignal;
  process: ProcessTransport | undefined;
  /** How the manager reads its SDKs' errors. */
  errors: ProtocolErrors;
  /** A remote server's URL: a network, TLS or HTTP failure reaching it is explained with a fix. */
  url?: string;
}

/** Why a start failed, as one error: the reason, how the process ended and the last lines of its stderr. */
export function describeStartFailure(context: StartFailureContext): Error {
  const { serverId, error, timeoutMs, deadline, process, errors, url } = context;
  const remote = url === undefined ? undefined : explainRemoteFailure(error, url, errors.httpStatusOf(error));
  const detail = describeExit(process?.exit);
  let reason: string;
  if (deadline.aborted || errors.isSdkTimeout(error)) {
    reason = `did not finish starting within ${timeoutMs} ms (startupTimeoutMs)`;
  } else if (remote !== undefined) {
    reason = remote;
  } else if (errors.isConnectionClosed(error)) {
    reason = `exited during start-up${detail ? ` (${detail})` : ''}`;
  } else {
    const failure = toBackendFailure(error, { serverId, operation: 'start-up', timeoutMs, errors });
    reason = failure instanceof Error ? failure.message.replace(`MCP server '${serverId}': `, '') : String(failure);
    reason += supportedVersionsHint(error, errors) + pinnedModernHint(error);
  }
  const message = `MCP server '${serverId}' ${reason}${stderrSummary(process)}`;
  return deadline.aborted
    ? new TimeoutError({ timeoutMs, message, cause: error })
    : new ServerNotRunningError({ serverId, state: 'failed', message, cause: error });
}

/**
 * Whether a failed start (as `describeStartFailure` made it) was the backend refusing the 2025 handshake as a
 * revision it does not speak (`-32022`, what a 2026-07-28-only server answers `initialize`): then it is worth
 * connecting again in 2026-07-28.
 */
export function refusedLegacyHandshake(error: unknown, errors: ProtocolErrors): boolean {
  for (let current = error, depth = 0; current instanceof Error && depth < 5; depth += 1) {
    if (errors.wireErrorOf(current)?.code === unsupportedProtocolVersionCode) return true;
    current = current.cause;
  }
  return false;
}

/**
 * ` (it speaks no 2026-07-28: …)` when the 2.x client, pinned to 2026-07-28 (`protocol: "2026-07-28"`), found the
 * backend's `server/discover` not offering it (the SDK's `ERA_NEGOTIATION_FAILED`, read by its public `code`).
 */
function pinnedModernHint(error: unknown): string {
  if (!(error instanceof Error) || (error as { code?: unknown }).code !== 'ERA_NEGOTIATION_FAILED') return '';
  return ' (it does not speak 2026-07-28: a 2025 server; its config entry\'s "protocol" may say "2025", or be left out)';
}

/** ` (it speaks 2026-07-28; …)` for a `-32022` whose data names the revisions the server speaks, else nothing. */
function supportedVersionsHint(error: unknown, errors: ProtocolErrors): string {
  const wire = errors.wireErrorOf(error);
  if (wire?.code !== unsupportedProtocolVersionCode) return '';
  const supported = (wire.data as { supported?: unknown } | undefined)?.supported;
  if (!Array.isArray(supported) || supported.length === 0) return '';
  const names = supported.filter((version): version is string => typeof version === 'string');
  return ` (it speaks ${names.join(', ')}; its config entry's "protocol" may pin "2026-07-28", or leave it out)`;
}

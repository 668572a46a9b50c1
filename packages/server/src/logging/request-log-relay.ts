import { isRecord, type LoggingLevel } from '@search-mcp/shared';
import type { RequestExtra } from '../request-extra-types.js';
import type { ClientOrigin, ClientSession } from '../sessions/client-session.js';
import { isAtLeast } from './log-levels.js';

/**
 * The level a 2026-07-28 request asked for (`_meta["io.modelcontextprotocol/logLevel"]`, which the SDK lifts into
 * the request's envelope). Undefined: the request gets no log messages at all (spec MUST), and a 2025 request never
 * has one (its session's `logging/setLevel` rules instead).
 */
export function requestLogLevel(extra: RequestExtra): LoggingLevel | undefined {
  return extra.clientEra.requestLogLevel(extra.envelope);
}

/**
 * The 2026-07-28 client requests a server's log message at `level` goes to. Such a client has no stream outside its
 * requests and hears log messages only on the response stream of a request that asked for them, so: among the
 * requests to the server in flight now (`origins`, from the gateway), those of 2026-07-28 clients whose level the
 * message meets, whose caller may see the server, not yet ended; each client request once (one request of a client
 * may have several calls to the server in flight). A backend does not say which of several concurrent calls a
 * message belongs to, so each of them that asked hears it.
 */
export function requestsHearingLog(serverId: string, level: LoggingLevel, origins: readonly object[]): RequestExtra[] {
  const hearing = new Set<RequestExtra>();
  for (const origin of origins) {
    if (!isClientOrigin(origin) || hearing.has(origin.extra) || origin.extra.signal.aborted) continue;
    const wanted = requestLogLevel(origin.extra);
    if (wanted === undefined || !isAtLeast(level, wanted) || !origin.session.canSee(serverId)) continue;
    hearing.add(origin.extra);
  }
  return [...hearing];
}

/**
 * The request of a 2025 session whose stream a server's log message goes on: the session's newest call to the server
 * in flight (`origins` is newest first), not yet ended. Over Streamable HTTP that call's POST stream is open now,
 * while the session's own GET stream may not be yet (the client opens it by itself after the handshake, and a
 * message sent before is lost). Undefined: no such call; the message goes to the session's own stream.
 */
export function sessionCallInFlight(session: ClientSession, origins: readonly object[]): RequestExtra | undefined {
  for (const origin of origins) {
    if (isClientOrigin(origin) && origin.session === session && !origin.extra.signal.aborted) return origin.extra;
  }
  return undefined;
}

function isClientOrigin(value: object): value is ClientOrigin {
  const origin = value as Partial<Record<keyof ClientOrigin, unknown>>;
  return isRecord(origin.session) && isRecord(origin.extra);
}

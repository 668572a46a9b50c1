/**
 * What either SDK generation throws, read one way: the 1.x client throws `McpError` for the backend's JSON-RPC
 * errors and for its own timeouts and closed connections (codes -32001, -32000); the 2.x client throws
 * `ProtocolError` for the backend's errors and `SdkError` (string codes) for its own. Neither SDK is imported here:
 * each generation's classes are read through a reader its module exports, adopted by a manager's `ProtocolErrors`
 * when one of its connections loads that module (the 1.x one on the first connect, the 2.x one only for a
 * 2026-07-28 backend), so `serve` answers before either is loaded. Before a reader is adopted nothing of its SDK can
 * have reached that manager, so "not recognised" is the right answer then.
 */

/** JSON-RPC code of `-32022` (the backend does not speak the revision we asked for). */
export const unsupportedProtocolVersionCode = -32022;

export interface WireError {
  code: number;
  message: string;
  data?: unknown;
}

/** Reads the 2.x SDK's errors (see `modern-backend-client.ts`). */
export interface ModernErrorReader {
  /** The backend's JSON-RPC error (`ProtocolError`), or undefined. */
  wireError(error: unknown): WireError | undefined;
  /** The 2.x client's own error code (`SdkError`: `REQUEST_TIMEOUT`, `CONNECTION_CLOSED`, …), or undefined. */
  sdkCode(error: unknown): 'timeout' | 'closed' | 'other' | undefined;
  /** The 2.x client's refusal of a backend's result (`INVALID_RESULT`, `UNSUPPORTED_RESULT_TYPE`): its message. */
  badResult(error: unknown): string | undefined;
}

/** Reads the 1.x SDK's errors (see `legacy-client-module.ts`). */
export interface LegacyErrorReader {
  /** The backend's JSON-RPC error, or a local one carrying a code (`McpError`), or undefined. */
  wireError(error: unknown): WireError | undefined;
  /** The 1.x client's own timeout or closed connection (`McpError` codes -32001, -32000), or undefined. */
  sdkCode(error: unknown): 'timeout' | 'closed' | 'other' | undefined;
  /** The HTTP status a 1.x remote transport failed with (`StreamableHTTPError`, `SseError`), or undefined. */
  httpStatus(error: unknown): number | undefined;
}

/**
 * How one manager reads SDK errors: the readers of the SDK generations its connections loaded. Created per manager
 * and passed to what reads errors (two managers in one process share nothing; a manager whose backends never loaded
 * a generation recognises none of its errors, since none of them can reach it).
 */
export class ProtocolErrors {
  private legacy: LegacyErrorReader | undefined;
  private modern: ModernErrorReader | undefined;

  /** The 1.x SDK was loaded for one of this manager's connections. */
  adoptLegacy(reader: LegacyErrorReader): void {
    this.legacy = reader;
  }

  /** The 2.x SDK was loaded for one of this manager's connections. */
  adoptModern(reader: ModernErrorReader): void {
    this.modern = reader;
  }

  /** The backend's JSON-RPC error (or a 1.x local one carrying a code), or undefined for anything else. */
  wireErrorOf(error: unknown): WireError | undefined {
    return this.legacy?.wireError(error) ?? this.modern?.wireError(error);
  }

  /** The 2.x client refused the backend's result: the SDK's message; undefined for anything else. */
  badResultOf(error: unknown): string | undefined {
    return this.modern?.badResult(error);
  }

  /** The SDK's own request timer fired. */
  isSdkTimeout(error: unknown): boolean {
    return this.sdkCodeOf(error) === 'timeout';
  }

  /** The connection closed while the request was pending. */
  isConnectionClosed(error: unknown): boolean {
    return this.sdkCodeOf(error) === 'closed';
  }

  /** The HTTP status a remote transport failed with (the 1.x transports keep it nowhere else), or undefined. */
  httpStatusOf(error: unknown): number | undefined {
    return this.legacy?.httpStatus(error);
  }

  private sdkCodeOf(error: unknown): 'timeout' | 'closed' | 'other' | undefined {
    return this.legacy?.sdkCode(error) ?? this.modern?.sdkCode(error);
  }
}

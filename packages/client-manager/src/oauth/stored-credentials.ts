import type {
  OAuthDiscoveryState,
  StoredOAuthClientInformation,
  StoredOAuthTokens,
} from '@modelcontextprotocol/client';
import { isRecord } from '@search-mcp/shared';

/** Tokens as stored: what the token endpoint answered, stamped with when (for the expiry). */
export type SavedTokens = StoredOAuthTokens & { savedAt: number };

/**
 * Everything kept for one backend server (one store entry, docs/oauth.md "Storage"): client registrations and tokens
 * per authorization server (`issuer`), which issuer issued the newest tokens, and the last discovery (so a restart
 * skips it). Bound to the server's URL: an entry whose URL is not the configured one is never used.
 */
export interface StoredCredentials {
  serverUrl: string;
  clients: Record<string, StoredOAuthClientInformation>;
  tokens: Record<string, SavedTokens>;
  latestIssuer?: string;
  discovery?: OAuthDiscoveryState;
  /**
   * Scope a server asked for (a 403 step-up) that the stored tokens lack, when nobody could be asked at the time: the
   * next login asks for it too.
   */
  wantedScope?: string;
}

export function emptyCredentials(serverUrl: string): StoredCredentials {
  return { serverUrl, clients: {}, tokens: {} };
}

/** The store key of a server: its id and URL (a changed URL never gets the old server's tokens). */
export function credentialsKey(serverId: string, serverUrl: string): string {
  return `oauth:${serverId}:${serverUrl}`;
}

/**
 * The store key of one caller's own credentials for a server with `identity: "per-user"` (docs/oauth-in-front.md,
 * "Each caller's own account"): the subject is part of it, so one caller's tokens are never read for another, and it
 * never starts like the shared key (`oauth:<id>:`), which stays the server's own.
 */
export function perUserCredentialsKey(serverId: string, serverUrl: string, subject: string): string {
  return `oauth-user:${serverId}:${encodeURIComponent(subject)}:${serverUrl}`;
}

/** A stored value read back: anything that is not a credentials record of this URL counts as nothing stored. */
export function parseCredentials(text: string | undefined, serverUrl: string): StoredCredentials {
  if (text === undefined) return emptyCredentials(serverUrl);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return emptyCredentials(serverUrl);
  }
  if (!isRecord(parsed) || parsed.serverUrl !== serverUrl) return emptyCredentials(serverUrl);
  const credentials: StoredCredentials = {
    serverUrl,
    clients: isRecord(parsed.clients) ? (parsed.clients as StoredCredentials['clients']) : {},
    tokens: isRecord(parsed.tokens) ? (parsed.tokens as StoredCredentials['tokens']) : {},
  };
  if (typeof parsed.latestIssuer === 'string') credentials.latestIssuer = parsed.latestIssuer;
  if (isRecord(parsed.discovery)) credentials.discovery = parsed.discovery as unknown as OAuthDiscoveryState;
  if (typeof parsed.wantedScope === 'string') credentials.wantedScope = parsed.wantedScope;
  return credentials;
}

/** Milliseconds since the epoch when saved tokens expire, when the authorization server said. */
export function expiresAt(tokens: SavedTokens): number | undefined {
  return typeof tokens.expires_in === 'number' ? tokens.savedAt + tokens.expires_in * 1000 : undefined;
}

/** A refresh happens this long before the access token's expiry, so a call never meets an expired token. */
const refreshAheadMs = 60_000;

/**
 * When saved tokens are due for a refresh: a minute before they expire, or halfway through a lifetime shorter than
 * two minutes (else a token that lives under a minute would be refreshed before every request). Undefined when the
 * authorization server did not say when they expire (a 401 then asks for the refresh).
 */
export function refreshDueAt(tokens: SavedTokens): number | undefined {
  if (typeof tokens.expires_in !== 'number') return undefined;
  const lifetimeMs = tokens.expires_in * 1000;
  return tokens.savedAt + lifetimeMs - Math.min(refreshAheadMs, lifetimeMs / 2);
}

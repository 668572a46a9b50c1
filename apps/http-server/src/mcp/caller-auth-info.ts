import type { AuthInfo } from '@modelcontextprotocol/server';
import type { Caller } from '@search-mcp/catalog';
import { isRecord } from '@search-mcp/shared';

/**
 * The caller the auth hook resolved, as the SDK's pass-through `authInfo` (2026-07-28 leg): it reaches the per-request
 * server factory that way. The token itself never travels: only its id and the project.
 */
export function authInfoOf(caller: Caller): AuthInfo {
  return { token: '', clientId: caller.tokenId ?? 'anonymous', scopes: [], extra: { caller } };
}

/**
 * The caller back from `authInfo` (no caller: no token, no project). The object is the one `authInfoOf` put there,
 * made by the auth hook in this process, never by a client: its subject and access come back as they went in.
 */
export function callerOfAuthInfo(authInfo: AuthInfo | undefined): Caller {
  const caller = authInfo?.extra?.caller;
  if (!isRecord(caller)) return {};
  return {
    ...(typeof caller.tokenId === 'string' ? { tokenId: caller.tokenId } : {}),
    ...(typeof caller.projectId === 'string' ? { projectId: caller.projectId } : {}),
    ...(typeof caller.subject === 'string' ? { subject: caller.subject } : {}),
    ...(isRecord(caller.access) ? { access: caller.access as Caller['access'] & object } : {}),
  };
}

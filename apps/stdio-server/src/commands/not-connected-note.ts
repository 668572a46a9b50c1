import { authorizeCommand, type ServerStatus } from '@search-mcp/shared';

/**
 * One line naming the servers whose tools were not searched or listed because they failed or wait for an OAuth login,
 * or undefined.
 */
export function notConnectedNote(failed: readonly ServerStatus[]): string | undefined {
  if (failed.length === 0) return undefined;
  const logins = failed.filter((status) => status.state === 'needs-auth').map((status) => authorizeCommand(status.id));
  const login = logins.length > 0 ? ` Log in with ${logins.join(', ')}.` : '';
  return `Not connected (their tools are missing): ${failed.map((status) => status.id).join(', ')}. Run search-mcp doctor to see why.${login}`;
}

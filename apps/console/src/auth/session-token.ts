/**
 * Where the console keeps the caller's token: `sessionStorage`, gone when the tab closes (docs/console.md,
 * "Signing in").
 */
const key = 'search-mcp-console-token';
const projectKey = 'search-mcp-console-project';

export function readToken(): string | undefined {
  try {
    return sessionStorage.getItem(key) ?? undefined;
  } catch {
    return undefined;
  }
}

/** The project a token limited to projects works in (sent as `x-project-id`, apps/http-server/README.md). */
export function readProject(): string | undefined {
  try {
    return sessionStorage.getItem(projectKey) ?? undefined;
  } catch {
    return undefined;
  }
}

export function saveToken(token: string, project?: string): void {
  sessionStorage.setItem(key, token);
  if (project) sessionStorage.setItem(projectKey, project);
  else sessionStorage.removeItem(projectKey);
}

export function forgetToken(): void {
  sessionStorage.removeItem(key);
  sessionStorage.removeItem(projectKey);
}

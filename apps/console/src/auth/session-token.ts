/**
 * Where the console keeps the caller's token: `sessionStorage`, gone when the tab closes (docs/console.md,
 * "Signing in").
 */
const key = 'search-mcp-console-token';

export function readToken(): string | undefined {
  try {
    return sessionStorage.getItem(key) ?? undefined;
  } catch {
    return undefined;
  }
}

export function saveToken(token: string): void {
  sessionStorage.setItem(key, token);
}

export function forgetToken(): void {
  sessionStorage.removeItem(key);
}

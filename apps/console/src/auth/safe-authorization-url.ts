/**
 * The authorization URL the console may open in a tab: http(s) only. It comes from the backend's authorization
 * server (through `POST /v1/servers/{id}/authorize`), so a hostile one could name `javascript:` (run in the
 * console's origin when opened) or a scheme that starts a local program. Anything else is refused: undefined.
 */
export function safeAuthorizationUrl(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.href : undefined;
}

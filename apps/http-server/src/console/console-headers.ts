/**
 * The headers of everything under `/ui` (docs/console.md, "Signing in"): no script but the console's own files, no
 * framing, no referrer (a sign-in code in the address must not leak), no content sniffing.
 */
export const consoleSecurityHeaders: Readonly<Record<string, string>> = {
  'content-security-policy':
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
    "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

/** Vite names the files under `assets/` by their content hash: they never change, so browsers may keep them. */
export function cacheControlFor(filePath: string): string {
  return /[\\/]assets[\\/]/.test(filePath) ? 'public, max-age=31536000, immutable' : 'no-cache';
}

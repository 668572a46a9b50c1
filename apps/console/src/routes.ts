/**
 * The console's addresses. It is served under /ui (vite.config.ts `base`; docs/console.md) with path routing: the
 * server answers index.html for every unknown path under /ui/.
 */
export const base = import.meta.env.BASE_URL.replace(/\/$/, '');

/** A link to a tool's page; the key (`server:tool`) is one path segment. */
export function toolHref(toolKey: string): string {
  return `${base}/tools/${encodeURIComponent(toolKey)}`;
}

import { editDistance } from '@search-mcp/shared';

/**
 * The closest tool keys to a key that matched nothing, best first, for "did you mean" answers a model can act on
 * (a wrong server, a typo, `read_file` vs `read_text_file`). A key naming a listed server gets that server's nearest
 * tools when it has any close; otherwise (or for an unknown server) the nearest of all. Distances are the one
 * "did you mean" rule of `@search-mcp/shared` (`editDistance`), scored per part of the key.
 */
export function closestToolKeys(input: string, toolKeys: readonly string[], limit = 3): string[] {
  const wanted = input.trim().toLowerCase();
  const server = serverPart(wanted);
  if (server !== undefined) {
    const own = toolKeys.filter((key) => serverPart(key.toLowerCase()) === server);
    const nearOwn = own.length > 0 ? rankKeys(wanted, own, limit) : [];
    if (nearOwn.length > 0) return nearOwn;
  }
  return rankKeys(wanted, toolKeys, limit);
}

/** The server id a key names (`everything` of `everything:echo`), or undefined when it names none. */
export function serverPart(key: string): string | undefined {
  return keyPattern.exec(key)?.[1];
}

const keyPattern = /^([a-zA-Z0-9-]+)(?::|\.|__)(.+)$/;

function rankKeys(wanted: string, toolKeys: readonly string[], limit: number): string[] {
  const wantedTool = toolPart(wanted);
  if (wantedTool === '') return [];
  const budget = Math.max(2, Math.ceil(wantedTool.length * 0.4));
  const scored: Array<{ key: string; score: number }> = [];
  for (const key of toolKeys) {
    const lower = key.toLowerCase();
    const tool = toolPart(lower);
    let score = Math.min(editDistance(wanted, lower, budget), editDistance(wantedTool, tool, budget) + 1);
    // Same tool name on another server, or one name contains the other.
    const contains = related(tool, wantedTool);
    if (tool === wantedTool) score = Math.min(score, 0.5);
    else if (contains) score = Math.min(score, 1 + Math.abs(tool.length - wantedTool.length) / 10);
    if (score <= budget || contains) scored.push({ key, score });
  }
  scored.sort((a, b) => a.score - b.score || a.key.localeCompare(b.key));
  return scored.slice(0, limit).map((entry) => entry.key);
}

/** One name starts or ends with the other, or holds it as a large part of itself (not a stray common word). */
function related(a: string, b: string): boolean {
  const [shorter, longer] = a.length <= b.length ? [a, b] : [b, a];
  if (shorter.length < 3 || !longer.includes(shorter)) return false;
  return longer.startsWith(shorter) || longer.endsWith(shorter) || shorter.length / longer.length >= 0.5;
}

function toolPart(key: string): string {
  return keyPattern.exec(key)?.[2] ?? key;
}

/**
 * The closest tool keys to a key that matched nothing, best first, for "did you mean" answers a model can act on
 * (a wrong server, a typo, `read_file` vs `read_text_file`).
 */
export function closestToolKeys(input: string, toolKeys: readonly string[], limit = 3): string[] {
  const wanted = input.trim().toLowerCase();
  const wantedTool = toolPart(wanted);
  if (wantedTool === '') return [];
  const scored: Array<{ key: string; score: number }> = [];
  for (const key of toolKeys) {
    const lower = key.toLowerCase();
    const tool = toolPart(lower);
    let score = Math.min(distance(wanted, lower), distance(wantedTool, tool) + 1);
    // Same tool name on another server, or one name contains the other.
    const contains = related(tool, wantedTool);
    if (tool === wantedTool) score = Math.min(score, 0.5);
    else if (contains) score = Math.min(score, 1 + Math.abs(tool.length - wantedTool.length) / 10);
    const budget = Math.max(2, Math.ceil(wantedTool.length * 0.4));
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
  const match = /^[a-z0-9-]+(?::|\.|__)(.+)$/.exec(key);
  return match?.[1] ?? key;
}

/** Levenshtein distance, bounded to short strings' cost. */
function distance(a: string, b: string): number {
  if (a === b) return 0;
  if (a.length > 128 || b.length > 128) return Math.abs(a.length - b.length) + 64;
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      current[j] = Math.min(
        (previous[j] ?? 0) + 1,
        (current[j - 1] ?? 0) + 1,
        (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

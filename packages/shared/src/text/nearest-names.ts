/**
 * "Did you mean" for every mistyped name (config keys, CLI commands, server ids, tool names): the one rule, so the
 * config parser, the CLI and the catalog's not-found answers agree on what is close.
 */

/** The name with case, `-`, `_` and spaces folded away: `timeout_ms`, `timeoutMS` and `TimeoutMs` are one name. */
export function foldName(name: string): string {
  return name.toLowerCase().replace(/[-_\s]/g, '');
}

/** How many edits a name of this (folded) length may be from a candidate and still count as a typo of it. */
export function typoBudget(foldedLength: number): number {
  return foldedLength <= 4 ? 1 : foldedLength <= 8 ? 2 : 3;
}

/**
 * The candidates close to `input`, nearest first (at most `limit`): the same up to case and `-`/`_`, within the typo
 * budget of edits, or (three characters or more) a prefix of the candidate or the candidate a prefix of it
 * (`mem` → `memory`, `enviroment` → `env`).
 */
export function nearestNames(input: string, candidates: readonly string[], limit = 3): string[] {
  const folded = foldName(input);
  if (folded === '' || limit <= 0) return [];
  const budget = typoBudget(folded.length);
  const scored: Array<{ name: string; score: number; order: number }> = [];
  candidates.forEach((name, order) => {
    const candidate = foldName(name);
    if (candidate === '') return;
    const distance = editDistance(folded, candidate, budget);
    // A prefix counts after every typo (a weaker sign than a few edits), the closest in length first.
    const prefix =
      Math.min(folded.length, candidate.length) >= 3 && (candidate.startsWith(folded) || folded.startsWith(candidate));
    if (distance <= budget) scored.push({ name, score: distance, order });
    else if (prefix)
      scored.push({ name, score: budget + 1 + Math.abs(candidate.length - folded.length) / 1000, order });
  });
  scored.sort((left, right) => left.score - right.score || left.order - right.order);
  return scored.slice(0, limit).map((entry) => entry.name);
}

/** The one candidate `input` most likely meant (see `nearestNames`), or undefined when nothing is close. */
export function closestName(input: string, candidates: readonly string[]): string | undefined {
  return nearestNames(input, candidates, 1)[0];
}

/**
 * Damerau–Levenshtein distance (an adjacent swap counts once). With `limit`, gives up early and answers `limit + 1`
 * once the distance must exceed it, so long lists of long names stay cheap.
 */
export function editDistance(left: string, right: string, limit = Number.POSITIVE_INFINITY): number {
  if (left === right) return 0;
  if (Math.abs(left.length - right.length) > limit) return limit + 1;
  let previousPrevious: number[] = [];
  let previous = Array.from({ length: right.length + 1 }, (_, index) => index);
  for (let row = 1; row <= left.length; row += 1) {
    const current = [row];
    let rowMinimum = row;
    for (let column = 1; column <= right.length; column += 1) {
      const cost = left[row - 1] === right[column - 1] ? 0 : 1;
      let value = Math.min(
        (previous[column] ?? 0) + 1,
        (current[column - 1] ?? 0) + 1,
        (previous[column - 1] ?? 0) + cost,
      );
      if (row > 1 && column > 1 && left[row - 1] === right[column - 2] && left[row - 2] === right[column - 1])
        value = Math.min(value, (previousPrevious[column - 2] ?? 0) + 1);
      current[column] = value;
      rowMinimum = Math.min(rowMinimum, value);
    }
    if (rowMinimum > limit) return limit + 1;
    previousPrevious = previous;
    previous = current;
  }
  return previous[right.length] ?? 0;
}

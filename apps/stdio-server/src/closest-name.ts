/**
 * The candidate a mistyped name most likely meant, for "did you mean": the same up to case and `-`/`_`, a prefix of
 * at least three characters, or within a small edit distance. Undefined when nothing is close.
 *
 * The config parser of `@search-mcp/shared` has the same rule for config keys (`suggestKey`), not exported yet;
 * this should use it once it is.
 */
export function closestName(input: string, candidates: readonly string[]): string | undefined {
  const folded = fold(input);
  if (folded === '') return undefined;
  const same = candidates.find((candidate) => fold(candidate) === folded);
  if (same !== undefined) return same;
  const limit = folded.length <= 4 ? 1 : folded.length <= 8 ? 2 : 3;
  let best: string | undefined;
  let bestDistance = limit + 1;
  for (const candidate of candidates) {
    const distance = editDistance(folded, fold(candidate));
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best ?? candidates.find((candidate) => folded.length >= 3 && fold(candidate).startsWith(folded));
}

function fold(name: string): string {
  return name.toLowerCase().replace(/[-_\s]/g, '');
}

/** Levenshtein distance with adjacent swaps counted once; CLI names are short. */
function editDistance(left: string, right: string): number {
  let previousPrevious: number[] = [];
  let previous = Array.from({ length: right.length + 1 }, (_, index) => index);
  for (let row = 1; row <= left.length; row += 1) {
    const current = [row];
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
    }
    previousPrevious = previous;
    previous = current;
  }
  return previous[right.length] ?? 0;
}

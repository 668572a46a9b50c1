/**
 * Which copy of the fixture servers to start: the one-file bundles `pnpm build` writes (tsup.config.ts of this
 * package), or the sources. A bundle starts in less than half the CPU, and tests start fixtures hundreds of times; but
 * a bundle older than any source of the folder may be a fixture as it was before an edit, so then the sources win.
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * `bundleDirectory` when it holds a bundle of every one of `names`, none older than the newest `.mjs` of
 * `sourceDirectory`; else `sourceDirectory`. Checked at each call, not once: a test run in watch mode outlives edits.
 */
export function fixtureScriptsDirectory(
  sourceDirectory: string,
  bundleDirectory: string,
  names: readonly string[],
): string {
  let newestSource = 0;
  for (const file of readdirSync(sourceDirectory)) {
    if (file.endsWith('.mjs')) newestSource = Math.max(newestSource, statSync(join(sourceDirectory, file)).mtimeMs);
  }
  for (const name of names) {
    const bundle = statSync(join(bundleDirectory, name), { throwIfNoEntry: false });
    if (bundle === undefined || bundle.mtimeMs < newestSource) return sourceDirectory;
  }
  return bundleDirectory;
}

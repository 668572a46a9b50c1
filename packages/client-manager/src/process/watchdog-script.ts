import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * Where `watchdog.cjs` is: beside this module. In the published package both are in `dist/` (`dist/index.js` and
 * `dist/watchdog.cjs`); in the package's own tests both are in `src/process/`. A host that bundles this package into
 * one file must copy `watchdog.cjs` beside its bundle or pass the `watchdogScript` option.
 */
export function defaultWatchdogScript(): string | undefined {
  const path = fileURLToPath(new URL('./watchdog.cjs', import.meta.url));
  return existsSync(path) ? path : undefined;
}

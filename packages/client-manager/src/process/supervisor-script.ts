import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * Where `supervisor.js` is: beside this module. In the published package both are in `dist/` (`dist/index.js`
 * and `dist/supervisor.js`); in the package's own tests both are in `src/process/`. A host that bundles this
 * package into one file must copy `supervisor.js` beside its bundle or pass `supervisorScript`.
 */
export function defaultSupervisorScript(): string | undefined {
  const path = fileURLToPath(new URL('./supervisor.js', import.meta.url));
  return existsSync(path) ? path : undefined;
}

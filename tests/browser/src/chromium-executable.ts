import { execFileSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';

/** Names a system Chromium goes by on Debian, Ubuntu and in Google's packages, in the order they are tried. */
const candidateNames = ['chromium', 'chromium-browser', 'google-chrome-stable', 'google-chrome'];

export const chromiumInstallHint =
  'The browser suite drives a system Chromium through puppeteer-core, which downloads no browser. Install one ' +
  '(Debian/Ubuntu: `apt-get install -y chromium`; .ci/run does this when it runs as root) or set CHROMIUM_PATH to ' +
  'a Chromium or Chrome executable.';

/**
 * The Chromium to drive: `CHROMIUM_PATH` when set, else the first of the usual names on PATH. Throws with how to
 * install one when there is none: a missing browser fails the suite, it never skips it (tests/browser/README.md).
 */
export function findChromium(): string {
  const configured = process.env.CHROMIUM_PATH;
  if (configured) {
    try {
      accessSync(configured, constants.X_OK);
      return configured;
    } catch {
      throw new Error(`CHROMIUM_PATH is ${configured}, which is not an executable. ${chromiumInstallHint}`);
    }
  }
  for (const name of candidateNames) {
    try {
      return execFileSync('which', [name], { encoding: 'utf8' }).trim();
    } catch {
      // Not on PATH under this name; try the next.
    }
  }
  throw new Error(`No Chromium found on PATH (looked for ${candidateNames.join(', ')}). ${chromiumInstallHint}`);
}

import { readdirSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';

interface Metafile {
  inputs: Record<string, unknown>;
}

interface PackageNotice {
  name: string;
  version: string;
  license: string;
  text: string | undefined;
}

/**
 * The licence notices of every third-party package a bundle inlines (MIT and its kin require the notice to travel with
 * the code): read from esbuild's metafile, whose inputs are paths relative to the working directory. Each package is
 * found by its last `node_modules/<name>` folder; its `LICENSE` file is copied as it is.
 */
export async function writeThirdPartyNotices(options: { metafile: string; output: string }): Promise<void> {
  const metafile = JSON.parse(readFileSync(options.metafile, 'utf8')) as Metafile;
  const folders = new Set<string>();
  for (const input of Object.keys(metafile.inputs)) {
    const installed = installedPackageOf(input);
    if (installed) folders.add(resolve(installed.folder));
  }
  const notices = [...folders].map(noticeOf).sort((a, b) => a.name.localeCompare(b.name));
  const sections = notices.map(
    (notice) =>
      `## ${notice.name} ${notice.version} (${notice.license})\n\n${notice.text ? `\`\`\`\n${notice.text.trim()}\n\`\`\`` : 'No licence file ships with this package; its package.json names the licence above.'}\n`,
  );
  await writeFile(
    options.output,
    `# Third-party notices\n\nThis bundle inlines code of the following packages, under their own licences.\n\n${sections.join('\n')}`,
  );
}

/**
 * The package a file sits in when that is the last `node_modules/<name>` of its path (pnpm nests them):
 * `../../node_modules/.pnpm/zod@4.6.7/node_modules/zod/v4/core/api.js` → the `…/node_modules/zod` folder and `zod`.
 * Undefined for a path through no `node_modules` (a workspace package's own file).
 */
export function installedPackageOf(path: string): { folder: string; name: string } | undefined {
  const match = /^(.*node_modules\/((?:@[^/]+\/)?[^/]+))\//.exec(path);
  return match?.[1] && match[2] ? { folder: match[1], name: match[2] } : undefined;
}

function noticeOf(folder: string): PackageNotice {
  const manifest = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as {
    name?: string;
    version?: string;
    license?: string;
  };
  const licenseFile = readdirSync(folder).find((entry) => /^(licen[cs]e|copying)(\.|$)/i.test(entry));
  return {
    name: manifest.name ?? folder,
    version: manifest.version ?? '',
    license: manifest.license ?? 'unknown',
    text: licenseFile ? readFileSync(join(folder, licenseFile), 'utf8') : undefined,
  };
}

import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pnpmCommand, publishedPackages, repositoryRoot } from './workspace.js';

/** One published package as `pnpm pack` wrote it. */
export interface PackedPackage {
  name: string;
  version: string;
  /** The workspace folder it was packed from, relative to the repository root. */
  relativeDirectory: string;
  tarball: string;
  /** Where the tarball is unpacked: the package's files are in `<unpacked>/package`. */
  unpacked: string;
}

export interface PackResult {
  directory: string;
  packages: PackedPackage[];
}

/**
 * Packs every published package with the pinned pnpm, which is what a release does: `workspace:` ranges become real
 * version ranges and the workspace LICENSE is added. The builds must exist, declarations included: turbo runs `build`
 * of this package's workspace devDependencies and the root's `build:types` before its `test` (turbo.json).
 */
export function packPublishedPackages(): PackResult {
  const packages = publishedPackages();
  const unbuilt = packages.filter(
    (entry) =>
      !existsSync(join(entry.directory, 'dist')) ||
      (entry.manifest.types !== undefined && !existsSync(join(entry.directory, entry.manifest.types))),
  );
  if (unbuilt.length > 0) {
    throw new Error(
      `not built: ${unbuilt.map((entry) => entry.name).join(', ')}; run the build first, declarations included ` +
        '(`npx -y pnpm@10.34.9 build`; turbo does it before these tests)',
    );
  }
  const directory = mkdtempSync(join(tmpdir(), 'search-mcp-packs-'));
  const pnpm = pnpmCommand();
  const filters = packages.flatMap((entry) => ['--filter', entry.name]);
  const output = execFileSync(
    pnpm.command,
    [...pnpm.args, '--recursive', ...filters, 'pack', '--pack-destination', directory, '--json'],
    { cwd: repositoryRoot, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 * 1024 * 1024 },
  );
  const listed = JSON.parse(output.slice(output.indexOf('['))) as { name: string; version: string; filename: string }[];
  const packed = packages.map((entry): PackedPackage => {
    const report = listed.find((item) => item.name === entry.name);
    if (!report) throw new Error(`pnpm pack did not pack ${entry.name}`);
    const unpacked = join(directory, 'unpacked', entry.name.replace('/', '+'));
    mkdirSync(unpacked, { recursive: true });
    execFileSync('tar', ['-xzf', report.filename, '-C', unpacked]);
    return {
      name: entry.name,
      version: report.version,
      relativeDirectory: entry.relativeDirectory,
      tarball: report.filename,
      unpacked,
    };
  });
  return { directory, packages: packed };
}

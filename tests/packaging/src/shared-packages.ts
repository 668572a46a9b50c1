import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { PackageManifest } from './workspace.js';

/**
 * The MCP SDK in both generations: 1.x is one package, 2.x is `server` and `client` on a shared `core` (which both
 * bundle parts of and import the rest from). Their classes and types cross our package boundaries, so an install
 * must hold one copy of each.
 */
export const sdkPackages = [
  '@modelcontextprotocol/sdk',
  '@modelcontextprotocol/server',
  '@modelcontextprotocol/client',
  '@modelcontextprotocol/core',
] as const;

/** The 2.x packages are released together: one version range for all of them. */
export const sdkGenerationTwo = sdkPackages.filter((name) => name !== '@modelcontextprotocol/sdk');

/** Packages an install must hold exactly once: the SDK family and zod (whose schemas the SDK and we share). */
export const sharedPackages = [...sdkPackages, 'zod'] as const;

export type DeclaredAs = 'peer' | 'dependency' | 'both' | 'undeclared';

/** How a manifest declares a package (devDependencies do not count: they are not installed for users). */
export function declaredAs(manifest: PackageManifest, name: string): DeclaredAs {
  const peer = manifest.peerDependencies?.[name] !== undefined;
  const dependency = manifest.dependencies?.[name] !== undefined || manifest.optionalDependencies?.[name] !== undefined;
  if (peer && dependency) return 'both';
  return peer ? 'peer' : dependency ? 'dependency' : 'undeclared';
}

/**
 * Where an SDK package belongs in a published manifest, decided by what the package's build imports:
 *
 * - its declarations (`.d.ts`) import it → **peer**: hosts pass in and receive those types and classes (a `Server`,
 *   a `Transport`, `ProtocolError`), so they must be the host's own copy;
 * - only its JavaScript imports it → **dependency**: an implementation detail hosts never see. As a peer it would
 *   make every host install it and, pinned exactly as the 2.x packages are, fail to resolve next to any other version
 *   the host uses, for nothing;
 * - nothing imports it → **undeclared**: a leftover peer makes every host install an SDK nobody loads (e.g. the 1.x
 *   SDK after a package moved to the 2.x names).
 */
export function expectedDeclaration(
  name: string,
  imports: { types: ReadonlySet<string>; code: ReadonlySet<string> },
): DeclaredAs {
  if (imports.types.has(name)) return 'peer';
  if (imports.code.has(name)) return 'dependency';
  return 'undeclared';
}

/**
 * The folder of the copy of `name` that Node would load from `fromDirectory` (the `node_modules` walk up the tree,
 * without `exports`, which need not expose `package.json`), with symbolic links resolved; undefined if none.
 */
export function installedCopyOf(name: string, fromDirectory: string): string | undefined {
  let current = fromDirectory;
  for (;;) {
    const candidate = join(current, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return realpathSync(candidate);
    const parent = dirname(current);
    if (parent === current) return undefined;
    current = parent;
  }
}

/** The version a copy found by `installedCopyOf` says it is. */
export function versionOfCopy(directory: string): string {
  return (JSON.parse(readFileSync(join(directory, 'package.json'), 'utf8')) as PackageManifest).version;
}

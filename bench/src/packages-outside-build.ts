import { build } from 'esbuild';

/**
 * Bundles `entry` into `outfile` the way an app was built before it became one bundle: esbuild, ESM for Node 20,
 * every package left to node_modules (so `outfile` must sit where those packages resolve, inside the app). The
 * benchmarks run an app's source built this way: `http-bench-server.ts` (not through tsx, see there), and the start
 * benchmarks (`http-start-bench.ts`, `web-search-start-bench.ts`: the start before the bundle, beside the published
 * build).
 */
export async function buildWithPackagesOutside(entry: string, outfile: string): Promise<string> {
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    sourcemap: true,
    logLevel: 'error',
  });
  return outfile;
}

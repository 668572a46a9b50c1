import type { ServerCapabilities } from '@modelcontextprotocol/sdk/types.js';
import type { ServerFeature } from '@search-mcp/shared';

const featureCapabilities: ReadonlyArray<[ServerFeature, keyof ServerCapabilities]> = [
  ['tools', 'tools'],
  ['resources', 'resources'],
  ['prompts', 'prompts'],
  ['completions', 'completions'],
  ['logging', 'logging'],
  ['tasks', 'tasks'],
];

/** The features a backend announced in `initialize` (for `ServerStatus.features` and `doctor`). */
export function featuresOf(capabilities: ServerCapabilities | undefined): ServerFeature[] {
  if (!capabilities) return [];
  return featureCapabilities.filter(([, key]) => capabilities[key] !== undefined).map(([feature]) => feature);
}

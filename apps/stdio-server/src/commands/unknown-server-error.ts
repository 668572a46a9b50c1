import { closestName } from '../closest-name.js';
import { UsageError } from '../usage-error.js';

/**
 * A server id the config does not have, as one line a person can act on: the nearest id, every configured id, and
 * when there are none how to add some (README, "Quick start": `search-mcp init`). Exit code 2, nothing started.
 */
export function unknownServerError(name: string, serverIds: readonly string[], configPath: string): UsageError {
  const suggestion = closestName(name, serverIds);
  const servers =
    serverIds.length > 0
      ? ` (servers: ${serverIds.join(', ')})`
      : ': it has no servers; add some with search-mcp init (it imports those of your AI clients) or by editing it';
  return new UsageError(
    `no server "${name}" in ${configPath}${suggestion ? `; did you mean "${suggestion}"?` : ''}${servers}`,
    { showHelpHint: false },
  );
}

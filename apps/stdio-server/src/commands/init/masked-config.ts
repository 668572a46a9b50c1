import { isRecord } from '@search-mcp/shared';

/** What replaces a secret value in what `init` prints. */
export const maskedValue = '<hidden>';

/** A value that only refers to a variable (`${TOKEN}`, `${TOKEN:-x}`) names no secret and is shown as written. */
const variableReference = /^\$\{[^}]+\}$/;

/**
 * A copy of a config for printing: the values of every server's `env` and `headers` (tokens, API keys) are hidden
 * unless they are only a `${VAR}` reference. The file written keeps them; what goes to a terminal, a CI log or a
 * pasted bug report does not.
 */
export function maskConfigSecrets<T extends { mcpServers: Record<string, unknown> }>(config: T): T {
  // No prototype: a server called "__proto__" stays an ordinary key.
  const servers = Object.create(null) as Record<string, unknown>;
  for (const [name, entry] of Object.entries(config.mcpServers)) {
    if (!isRecord(entry)) {
      servers[name] = entry;
      continue;
    }
    const copy: Record<string, unknown> = { ...entry };
    for (const key of ['env', 'headers']) {
      const values = copy[key];
      if (!isRecord(values)) continue;
      copy[key] = Object.fromEntries(
        Object.entries(values).map(([name, value]) => [
          name,
          typeof value === 'string' && variableReference.test(value) ? value : maskedValue,
        ]),
      );
    }
    servers[name] = copy;
  }
  return { ...config, mcpServers: servers };
}

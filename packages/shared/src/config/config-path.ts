/** JSON paths into the config file, as every issue and warning names them. */

export type PathSegment = string | number;
export type ConfigPath = readonly PathSegment[];

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** `mcpServers.github.env.TOKEN`, `mcpServers["My Server"].args[2]`: dots for identifiers, JSON-quoted brackets else. */
export function formatConfigPath(path: ConfigPath): string {
  let formatted = '';
  for (const segment of path) {
    if (typeof segment === 'number') formatted += `[${segment}]`;
    else if (IDENTIFIER.test(segment)) formatted += formatted === '' ? segment : `.${segment}`;
    else formatted += `[${JSON.stringify(segment)}]`;
  }
  return formatted;
}

export function toPathSegment(segment: PropertyKey): PathSegment {
  return typeof segment === 'symbol' ? String(segment) : segment;
}

/**
 * Server ids (packages/shared/README.md, "Configuration"): the `mcpServers` key, normalized so it is safe in tool
 * keys (`server:tool`), exposed names (`server__tool`), URLs and log fields.
 */

/** Lower-case letters, digits and `-`; starts with a letter or digit; at most 32 characters. */
export const SERVER_ID_PATTERN = /^[a-z0-9][a-z0-9-]{0,31}$/;

const SERVER_ID_MAX_LENGTH = 32;

export function isValidServerId(id: string): boolean {
  return SERVER_ID_PATTERN.test(id);
}

/**
 * Turns an `mcpServers` key into a server id: lower-cased, every other character becomes `-`, leading dashes
 * dropped, cut to 32 characters. Returns undefined when nothing usable is left (e.g. `"___"`), so the config
 * parser can report it as an issue instead of throwing.
 */
export function normalizeServerId(key: string): string | undefined {
  // The `u` flag replaces a whole code point (e.g. an emoji) with one dash, not two.
  const replaced = key.toLowerCase().replace(/[^a-z0-9-]/gu, '-');
  const id = replaced.replace(/^-+/, '').slice(0, SERVER_ID_MAX_LENGTH);
  return isValidServerId(id) ? id : undefined;
}

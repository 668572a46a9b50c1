import { createHash } from 'node:crypto';

/** What clients accept as a listed tool name (Claude Desktop, OpenAI and Bedrock reject dots). */
export const EXPOSED_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;

const maxLength = 64;

/**
 * The name a tool is listed under (CONTRACT §3): `server__tool`. Characters clients reject become `_`; a name that
 * had to change, or is longer than 64, keeps a readable prefix and ends in a hash of the tool key, so it is stable
 * across restarts and unique. Calls are routed through an `ExposedToolNames` table, never by parsing this.
 */
export function exposedToolName(serverId: string, toolName: string): string {
  const plain = `${serverId}__${toolName}`;
  if (EXPOSED_NAME_PATTERN.test(plain)) return plain;
  const sanitized = plain.replace(/[^a-zA-Z0-9_-]/g, '_');
  const hash = createHash('sha256').update(`${serverId}:${toolName}`).digest('hex').slice(0, 8);
  return `${sanitized.slice(0, maxLength - hash.length - 1)}_${hash}`;
}

/** The lookup table from listed names to tool keys. */
export class ExposedToolNames {
  private readonly toKey = new Map<string, string>();
  private readonly toName = new Map<string, string>();

  constructor(tools: Iterable<{ toolKey: string; serverName: string; toolName: string }>) {
    for (const tool of tools) {
      let name = exposedToolName(tool.serverName, tool.toolName);
      // Two keys that sanitize alike (`a.b` and `a_b`): the second gets the hashed form.
      if (this.toKey.has(name) && this.toKey.get(name) !== tool.toolKey)
        name = exposedToolName(tool.serverName, `${tool.toolName}\u0000`);
      this.toKey.set(name, tool.toolKey);
      this.toName.set(tool.toolKey, name);
    }
  }

  keyOf(exposedName: string): string | undefined {
    return this.toKey.get(exposedName);
  }

  nameOf(toolKey: string): string | undefined {
    return this.toName.get(toolKey);
  }
}

/**
 * The format of `<state folder>/tool-lists.json` (README, "Discovery before the servers are up"): per server id, the
 * identity of the entry that listed the tools (a digest: see `toolListIdentity` of the client manager), the
 * definitions, and a SHA-256 digest of both, checked on read. A file that does not parse, or an entry whose digest
 * does not match (a half-written or damaged file), is not trusted at all. The digest is not a signature: an edit
 * that recomputes it passes (docs/first-session.md).
 */
import { createHash } from 'node:crypto';
import { isRecord, type ToolDefinition } from '@search-mcp/shared';

export interface ToolListEntry {
  identity: string;
  savedAt: string;
  tools: ToolDefinition[];
  digest: string;
}

export interface ToolListFile {
  version: 1;
  servers: Record<string, ToolListEntry>;
}

export function emptyToolListFile(): ToolListFile {
  return { version: 1, servers: {} };
}

/** An entry for these tools, with its digest. */
export function toolListEntry(identity: string, tools: readonly ToolDefinition[], savedAt: Date): ToolListEntry {
  return { identity, savedAt: savedAt.toISOString(), tools: [...tools], digest: entryDigest(identity, tools) };
}

/** @throws Error saying what is wrong when `text` is not a tool list file, or an entry's digest does not match. */
export function parseToolListFile(text: string): ToolListFile {
  const value: unknown = JSON.parse(text);
  if (!isRecord(value) || value.version !== 1 || !isRecord(value.servers)) {
    throw new Error('not a tool list file (version 1 with "servers")');
  }
  const servers: Record<string, ToolListEntry> = {};
  for (const [serverId, entry] of Object.entries(value.servers)) {
    if (
      !isRecord(entry) ||
      typeof entry.identity !== 'string' ||
      typeof entry.savedAt !== 'string' ||
      typeof entry.digest !== 'string' ||
      !Array.isArray(entry.tools) ||
      !entry.tools.every((tool) => isRecord(tool) && typeof tool.name === 'string' && isRecord(tool.inputSchema))
    ) {
      throw new Error(`the entry of server '${serverId}' is malformed`);
    }
    const tools = entry.tools as ToolDefinition[];
    if (entryDigest(entry.identity, tools) !== entry.digest) {
      throw new Error(`the digest of server '${serverId}' does not match its tools`);
    }
    servers[serverId] = { identity: entry.identity, savedAt: entry.savedAt, tools, digest: entry.digest };
  }
  return { version: 1, servers };
}

export function serializeToolListFile(file: ToolListFile): string {
  return `${JSON.stringify(file)}\n`;
}

function entryDigest(identity: string, tools: readonly ToolDefinition[]): string {
  return createHash('sha256')
    .update(JSON.stringify([identity, tools]))
    .digest('hex');
}

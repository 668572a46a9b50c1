import type { ToolDefinition } from '@search-mcp/shared';

/**
 * Where each server's last tool list is kept between runs (README, "Discovery before the servers are up"): the
 * manager searches it while the server is still starting and writes every list a running server sends. `identity`
 * names the server entry the list came from (its command and arguments or URL, its variable names): a list kept
 * under another identity is none of this entry's and is never returned.
 */
export interface ToolListCache {
  /** The definitions last listed by the server `serverId` with this identity; undefined when none are kept. */
  read(serverId: string, identity: string): readonly ToolDefinition[] | undefined;
  /** Keeps a running server's list (the store may write it later, in the background). */
  write(serverId: string, identity: string, tools: readonly ToolDefinition[]): void;
  /** Resolves once the writes asked for so far are stored; a runtime awaits it when it closes. */
  flush?(): Promise<void>;
}

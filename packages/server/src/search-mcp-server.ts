import type { Tool } from '@modelcontextprotocol/server';
import type { Caller } from '@search-mcp/catalog';
import { ParamsCheckingServer } from './params-checking-server.js';

/** Finds the tool `tools/list` gives `caller` under `name`, `undefined` when none is listed so. */
export type ListedToolFinder = (caller: Caller, name: string) => Promise<Tool | undefined>;

/**
 * The server `createSearchMcpServer` builds: the params-checking `Server`, which can also say which tool a caller was
 * listed under a name. Kept apart from the params checking: the listing is the tool lister's, the server only holds
 * where to ask, for an entry that checks a call against the tool as listed before it dispatches the call.
 */
export class SearchMcpServer extends ParamsCheckingServer {
  private listedToolFinder: ListedToolFinder | undefined;

  /** Where `listedTool` looks (the server's tool lister); a later call replaces it. */
  findListedTools(finder: ListedToolFinder): void {
    this.listedToolFinder = finder;
  }

  /**
   * The tool `tools/list` gives `caller` under `name` (its definition as listed), `undefined` when none is listed
   * so. An HTTP entry asks before dispatch: a 2026-07-28 call's `Mcp-Param-*` headers are checked against the
   * `x-mcp-header` arguments of the tool as its client saw it listed.
   */
  listedTool(caller: Caller, name: string): Promise<Tool | undefined> {
    return this.listedToolFinder ? this.listedToolFinder(caller, name) : Promise.resolve(undefined);
  }
}

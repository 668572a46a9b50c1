import { errorMessage, type Logger, type ServerConfig, type ToolInfo } from '@search-mcp/shared';
import type { BackendPeer } from './backend-peer.js';
import { ToolListRefresh } from './tool-list-refresh.js';
import { listAllToolPages } from './tool-paging.js';
import type { ProtocolErrors } from './protocol-errors.js';

export interface ServerToolListSettings {
  serverId: string;
  logger: Logger;
  /** The server's current config entry (tool permissions, timeout, naming). */
  config: () => ServerConfig;
  /** The list changed after a refresh (the connection reports the other changes itself, in its own order). */
  onToolsChanged: (serverId: string, tools: readonly ToolInfo[]) => void;
  /** How the manager reads its SDKs' errors. */
  errors: ProtocolErrors;
}

/**
 * One server's tool list: what its connection listed, shown without the tools whose permission is `false`, and
 * listed again when the backend says it changed (`tools/list_changed`, or a 2026 listen stream's notification).
 */
export class ServerToolList {
  private readonly settings: ServerToolListSettings;
  private tools: ToolInfo[] = [];
  private readonly refresh = new ToolListRefresh();

  constructor(settings: ServerToolListSettings) {
    this.settings = settings;
  }

  /** The tools as listed, whatever their permission. */
  get all(): readonly ToolInfo[] {
    return this.tools;
  }

  /** A new connection's list (or none, at its end). */
  replace(tools: ToolInfo[]): void {
    this.tools = tools;
  }

  /** The listed tools without those whose permission is `false`. */
  permitted(): ToolInfo[] {
    const permissions = this.settings.config().toolPermissions;
    return this.tools.filter((tool) => !Object.hasOwn(permissions, tool.toolName) || permissions[tool.toolName]);
  }

  /** Waits for a refresh in flight, so callers see the new list. */
  async settled(): Promise<void> {
    await this.refresh.settled();
  }

  /**
   * Lists the tools again (one refresh at a time, see `ToolListRefresh`). `currentClient` gives the running
   * connection's client while the connection that announced the change is still the current one, else undefined:
   * a refresh of an ended connection changes nothing. A failed refresh keeps the list and is logged.
   */
  relist(currentClient: () => BackendPeer | undefined): void {
    const { serverId, logger, config, onToolsChanged } = this.settings;
    this.refresh.request(async () => {
      const client = currentClient();
      if (!client) return;
      try {
        const tools = await listAllToolPages(client, {
          config: config(),
          logger,
          timeoutMs: config().timeoutMs,
          errors: this.settings.errors,
        });
        if (!currentClient()) return;
        this.tools = tools;
        logger.info('tool list changed', { tools: tools.length });
        onToolsChanged(serverId, tools);
      } catch (error) {
        logger.warn('could not refresh the tool list', { error: errorMessage(error) });
      }
    });
  }
}

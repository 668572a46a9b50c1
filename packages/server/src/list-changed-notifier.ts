import type { Server, Tool } from '@modelcontextprotocol/server';
import type { Caller } from '@search-mcp/catalog';
import { errorMessage, type Logger } from '@search-mcp/shared';
import type { ServerStatusSource } from './search-mcp-server-options.js';

/** What the notifier compares of a listed tool (a `Tool` of either SDK generation has it). */
type ListedTool = Pick<Tool, 'name' | 'description'>;

export interface ListChangedNotifier {
  /** Remembers what a `tools/list` answer sent this client, and for which caller. */
  listed(caller: Caller, tools: readonly ListedTool[]): void;
}

export interface ListChangedNotifierOptions {
  server: Server;
  /** Tells of backend tool-list changes; without one, nothing is ever sent. */
  manager: ServerStatusSource | undefined;
  /** Tells when a reload renamed or re-described tools without any backend changing (the catalog's). */
  onNamingChanged?: (listener: () => void) => () => void;
  /** The list the client would get now. */
  listTools: (caller: Caller) => Promise<readonly ListedTool[]>;
  /** The caller assumed until the client lists tools itself. */
  initialCaller: Caller;
  /** Quiet time after the last backend change before checking. */
  debounceMs: number;
  logger: Logger;
}

/**
 * Sends `notifications/tools/list_changed` when what this client was last sent would change (proxy mode: any tool;
 * meta mode: a pinned tool appears or goes), debounced, and never before the client has listed tools once (it will
 * get the current list when it does). Stops listening when the server closes.
 */
export function createListChangedNotifier(options: ListChangedNotifierOptions): ListChangedNotifier {
  const { server, manager } = options;
  let lastCaller = options.initialCaller;
  let listedFingerprint: string | undefined;
  const listed: ListChangedNotifier = {
    listed: (caller, tools) => {
      lastCaller = caller;
      listedFingerprint = fingerprintOf(tools);
    },
  };
  if (!manager) return listed;

  let timer: NodeJS.Timeout | undefined;
  const check = async () => {
    timer = undefined;
    if (!server.transport || listedFingerprint === undefined) return;
    try {
      const fingerprint = fingerprintOf(await options.listTools(lastCaller));
      if (fingerprint !== listedFingerprint) {
        listedFingerprint = fingerprint;
        await server.sendToolListChanged();
      }
    } catch (error) {
      options.logger.debug('could not check the tool list for changes', { error: errorMessage(error) });
    }
  };
  const onToolsChanged = () => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => void check(), options.debounceMs);
    timer.unref();
  };
  manager.on('tools-changed', onToolsChanged);
  const stopNaming = options.onNamingChanged?.(onToolsChanged);
  const previousOnClose = server.onclose;
  server.onclose = () => {
    manager.off('tools-changed', onToolsChanged);
    stopNaming?.();
    if (timer) clearTimeout(timer);
    previousOnClose?.();
  };
  return listed;
}

/** What a client can tell apart in a tool list: names and descriptions. */
function fingerprintOf(tools: readonly ListedTool[]): string {
  return tools.map((tool) => `${tool.name}\u0000${tool.description ?? ''}`).join('\u0001');
}

import type { BackendPeer } from './backend-peer.js';
import type { Logger, ServerConfig, ToolDefinition, ToolInfo } from '@search-mcp/shared';
import { z } from 'zod';
import { dropDuplicateTools, parseToolPage, toToolInfo } from '../tools/lenient-tool-list.js';
import type { ProtocolErrors } from './protocol-errors.js';

const ToolsPageSchema = z.looseObject({ tools: z.unknown().optional(), nextCursor: z.string().optional() });

/** JSON-RPC `-32601`. */
const methodNotFoundCode = -32601;

/** A server with more pages than this is cut off with a warning (a cursor bug would otherwise page forever). */
export const maxToolPages = 100;

export interface ToolPagingOptions {
  config: ServerConfig;
  logger: Logger;
  timeoutMs: number;
  signal?: AbortSignal;
  /** How the manager reads its SDKs' errors. */
  errors: ProtocolErrors;
}

/**
 * Lists every page of a server's tools, leniently (a malformed tool is dropped, never the server), with a guard
 * against servers whose cursors loop. Returns the catalog's view of each tool.
 */
export async function listAllToolPages(client: BackendPeer, options: ToolPagingOptions): Promise<ToolInfo[]> {
  const { config, logger } = options;
  const definitions: ToolDefinition[] = [];
  const seenCursors = new Set<string>();
  let cursor: string | undefined;
  for (let page = 0; page < maxToolPages; page += 1) {
    let answer: z.infer<typeof ToolsPageSchema>;
    try {
      answer = await client.request(
        { method: 'tools/list', params: cursor !== undefined ? { cursor } : {} },
        ToolsPageSchema,
        { timeout: options.timeoutMs, ...(options.signal ? { signal: options.signal } : {}) },
      );
    } catch (error) {
      // A server without tools (prompts or resources only) may not implement tools/list at all.
      if (options.errors.wireErrorOf(error)?.code === methodNotFoundCode && page === 0) {
        logger.info('server does not implement tools/list; it has no tools');
        return [];
      }
      throw error;
    }
    const { tools, problems } = parseToolPage(answer.tools ?? []);
    for (const problem of problems) {
      logger.warn('dropped or repaired a malformed tool definition', { ...problem });
    }
    definitions.push(...tools);
    cursor = answer.nextCursor;
    if (cursor === undefined || cursor === '') break;
    if (seenCursors.has(cursor)) {
      logger.warn('tools/list returned a cursor it had returned before; stopped paging', { cursor });
      break;
    }
    seenCursors.add(cursor);
    if (page === maxToolPages - 1) {
      logger.warn('tools/list has more than the page limit; stopped paging', { pages: maxToolPages });
    }
  }
  const { tools, duplicates } = dropDuplicateTools(definitions);
  if (duplicates.length > 0) logger.warn('dropped tools with duplicate names', { duplicates });
  return tools.map((definition) => toToolInfo(config.id, definition, config));
}

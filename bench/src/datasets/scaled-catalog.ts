/**
 * A data set's tools replicated up to a size, for the speed figures of the search benchmarks: copy 1 is the set
 * itself, copy n runs under server ids with the suffix `-rn` (`toCatalog`), so every tool key stays distinct.
 * `synthetic` copies instead get server names of their own (`synthetic n …`) and no server description, so their
 * text differs from copy to copy (the embeddings' vector cache cannot serve one copy's vectors for another).
 */
import type { ToolInfo } from '@search-mcp/shared';
import { type DatasetTool, toCatalog } from './dataset-catalog.js';

export function scaledCatalog(source: readonly DatasetTool[], size: number, synthetic = false): ToolInfo[] {
  if (source.length === 0) return [];
  const tools: ToolInfo[] = [];
  for (let copy = 1; tools.length < size; copy++) {
    const slice = source.slice(0, Math.min(source.length, size - tools.length));
    const replica = synthetic ? slice.map((tool) => ({ ...tool, server: `synthetic ${copy} ${tool.server}` })) : slice;
    const catalog = toCatalog(replica, !synthetic && copy > 1 ? `-r${copy}` : '');
    // The server id alone names a synthetic copy: without the data set's server name beside it.
    for (const tool of catalog.tools) tools.push(synthetic ? { ...tool, serverDescription: undefined } : tool);
  }
  return tools;
}

import type { Tool } from '@modelcontextprotocol/server';
import type { Caller } from '@search-mcp/catalog';
import type { ToolInfo } from '@search-mcp/shared';
import type { HandlerContext } from './handler-context.js';

export interface ToolListerOptions {
  /** Tool keys listed after the meta-tools in meta mode. */
  pinned: readonly string[];
  /** `tool_discovery` and `tool_execute` as listed in meta mode. */
  metaTools: readonly Tool[];
}

/**
 * What `tools/list` answers. Meta mode: the meta-tools, then the pinned tools that are visible. Proxy mode: every
 * visible tool under its exposed name, definitions as the backend sent them, one page in the backends' own order
 * (servers in config order, each server's tools as it lists them): with one backend, the list a client sees is the
 * backend's own, and a client that takes the first tool (as the conformance suite does) gets the same one.
 */
export function createToolLister(
  context: HandlerContext,
  options: ToolListerOptions,
): (caller: Caller) => Promise<Tool[]> {
  return async (caller) => {
    const { tools, names } = await context.exposure(caller);
    const listed = (tool: ToolInfo): Tool => toListedTool(tool, names.nameOf(tool.toolKey) ?? tool.toolKey);
    if (context.mode === 'proxy') return tools.map(listed);
    const pinnedTools = options.pinned.flatMap((key) => {
      const tool = tools.find((entry) => entry.toolKey === key);
      return tool ? [listed(tool)] : [];
    });
    return [...options.metaTools, ...pinnedTools];
  };
}

/**
 * The tool `tools/list` gives `caller` under `name`, or `undefined` when that name is not listed to it (a tool key, a
 * meta-tool, a tool the caller cannot see, an unpinned tool in meta mode). For the HTTP entry, which checks a
 * 2026-07-28 call's `Mcp-Param-*` headers against the definition its client was given before the call runs.
 */
export function createListedToolFinder(
  context: HandlerContext,
  options: Pick<ToolListerOptions, 'pinned'>,
): (caller: Caller, name: string) => Promise<Tool | undefined> {
  return async (caller, name) => {
    const { tools, names } = await context.exposure(caller);
    const key = names.keyOf(name);
    if (key === undefined || names.nameOf(key) !== name) return undefined;
    if (context.mode !== 'proxy' && !options.pinned.includes(key)) return undefined;
    const tool = tools.find((entry) => entry.toolKey === key);
    return tool ? toListedTool(tool, name) : undefined;
  };
}

/** A tool as listed: its definition as the backend sent it, under its exposed name. */
function toListedTool(tool: ToolInfo, exposedName: string): Tool {
  const definition: Record<string, unknown> = tool.definition
    ? { ...tool.definition }
    : {
        description: tool.description,
        inputSchema: tool.inputSchema,
        ...(tool.title !== undefined ? { title: tool.title } : {}),
        ...(tool.outputSchema !== undefined ? { outputSchema: tool.outputSchema } : {}),
        ...(tool.annotations !== undefined ? { annotations: tool.annotations } : {}),
      };
  definition.name = exposedName;
  return definition as Tool;
}

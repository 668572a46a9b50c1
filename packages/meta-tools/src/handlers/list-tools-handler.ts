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
 * visible tool under its exposed name, definitions as the backend sent them, one page sorted by name.
 */
export function createToolLister(
  context: HandlerContext,
  options: ToolListerOptions,
): (caller: Caller) => Promise<Tool[]> {
  return async (caller) => {
    const { tools, names } = await context.exposure(caller);
    const listed = (tool: ToolInfo): Tool => toListedTool(tool, names.nameOf(tool.toolKey) ?? tool.toolKey);
    if (context.mode === 'proxy')
      return tools.map(listed).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const pinnedTools = options.pinned.flatMap((key) => {
      const tool = tools.find((entry) => entry.toolKey === key);
      return tool ? [listed(tool)] : [];
    });
    return [...options.metaTools, ...pinnedTools];
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

import { backendOptions, type ForwardingContext } from '../forwarding/forwarding-context.js';
import { refuseCursor } from '../forwarding/list-cursor.js';
import type { ParamsCheckingServer } from '../params-checking-server.js';
import { JsonRpcWireError, toForwardedError } from '../wire-errors.js';
import { JsonRpcErrorCode } from '@search-mcp/shared';

/**
 * `prompts/list` (every visible server's prompts as `server__prompt`, one page sorted by name) and `prompts/get` (by
 * that name or `server:prompt`; the result is the backend's, unchanged, and the resources it links become readable).
 */
export function registerPromptHandlers(server: ParamsCheckingServer, context: ForwardingContext): void {
  const { hub } = context;
  server.handle('prompts/list', async (request, extra) => {
    refuseCursor('prompts/list', request.params?.cursor);
    await context.startupSettled(extra);
    try {
      const table = await hub.prompts(await hub.visibleServerIds(context.callerOf(request.params?._meta, extra)));
      return { prompts: table.prompts.map((prompt) => prompt.definition) };
    } catch (error) {
      throw toForwardedError(error, 'prompts/list');
    }
  });
  server.handle('prompts/get', async (request, extra) => {
    const { name, arguments: args, _meta } = request.params;
    await context.startupSettled(extra);
    let target: { serverId: string; name: string } | undefined;
    try {
      const table = await hub.prompts(await hub.visibleServerIds(context.callerOf(_meta, extra)));
      target = table.resolve(name);
    } catch (error) {
      throw toForwardedError(error, name);
    }
    if (!target) throw new JsonRpcWireError(JsonRpcErrorCode.InvalidParams, `Prompt not found: ${name}`);
    try {
      const result = await hub.gateway.getPrompt(
        target.serverId,
        target.name,
        args,
        backendOptions(context, _meta, extra),
      );
      hub.routes.noteLinks(target.serverId, result);
      return result;
    } catch (error) {
      throw toForwardedError(error, name);
    }
  });
}

import { backendOptions, type ForwardingContext } from '../forwarding/forwarding-context.js';
import { refuseCursor } from '../forwarding/list-cursor.js';
import {
  backendRetry,
  type InputBinding,
  openRequestState,
  passInputRequired,
  refuseUnstatedAnswers,
} from '../input/backend-input-state.js';
import { callIdentity } from '../input/request-state-codec.js';
import type { ParamsCheckingServer } from '../params-checking-server.js';
import { JsonRpcWireError, toForwardedError } from '../wire-errors.js';
import { JsonRpcErrorCode } from '@search-mcp/shared';

/**
 * `prompts/list` (every visible server's prompts as `server__prompt`, one page sorted by name) and `prompts/get` (by
 * that name or `server:prompt`; the result is the backend's, unchanged, and the resources it links become readable).
 * A 2026-07-28 backend's `input_required` goes to the client with our signed state wrapping its own, bound to the
 * caller, the prompt and its arguments; the retry sends the answers and the backend's state back (as for tools).
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
    refuseUnstatedAnswers(extra, 'prompts/get');
    await context.startupSettled(extra);
    let target: { serverId: string; name: string } | undefined;
    const caller = context.callerOf(_meta, extra);
    try {
      const table = await hub.prompts(await hub.visibleServerIds(caller));
      target = table.resolve(name);
    } catch (error) {
      throw toForwardedError(error, name);
    }
    if (!target) throw new JsonRpcWireError(JsonRpcErrorCode.InvalidParams, `Prompt not found: ${name}`);
    const binding: InputBinding = {
      caller,
      call: callIdentity(`prompts/get ${target.serverId}:${target.name}`, args ?? {}),
    };
    const retry =
      extra.requestState !== undefined
        ? backendRetry(openRequestState(extra.requestState, binding), target.serverId, extra)
        : {};
    try {
      const options = { ...backendOptions(context, _meta, extra), ...retry };
      const result = await hub.gateway.getPrompt(target.serverId, target.name, args, options);
      hub.routes.noteLinks(target.serverId, result);
      return passInputRequired(result, target.serverId, binding);
    } catch (error) {
      throw toForwardedError(error, name);
    }
  });
}

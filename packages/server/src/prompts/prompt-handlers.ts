import { backendOptions, type ForwardingContext } from '../forwarding/forwarding-context.js';
import { refuseCursor } from '../forwarding/list-cursor.js';
import { answerRound, attemptOptions, openRoundState, roundBinding } from '../input/input-round.js';
import type { ParamsCheckingServer } from '../params-checking-server.js';
import { JsonRpcWireError, toForwardedError } from '../wire-errors.js';
import { JsonRpcErrorCode } from '@search-mcp/shared';

/**
 * `prompts/list` (every visible server's prompts under their exposed names, one page in the backends' own order) and `prompts/get` (by
 * that name or `server:prompt`; the result is the backend's, unchanged, and the resources it links become readable).
 * Asking the client for input works in every pair of eras, as for tools: a 2026-07-28 backend's `input_required` goes
 * to the client with our signed state wrapping its own, bound to the caller, the prompt and its arguments (the retry
 * sends the answers and the backend's state back); a 2025 backend's push request during a 2026-07-28 client's
 * `prompts/get` is parked with it, asked in an `input_required` round, and the retry continues it (`input/input-round.ts`).
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
    const caller = context.callerOf(_meta, extra);
    try {
      const table = await hub.prompts(await hub.visibleServerIds(caller));
      target = table.resolve(name);
    } catch (error) {
      throw toForwardedError(error, name);
    }
    if (!target) throw new JsonRpcWireError(JsonRpcErrorCode.InvalidParams, `Prompt not found: ${name}`);
    const { serverId } = target;
    const prompt = target.name;
    const binding = roundBinding(caller, `prompts/get ${serverId}:${prompt}`, args ?? {});
    const state = openRoundState(context.inputs, extra, binding);
    const options = backendOptions(context, _meta, extra);
    try {
      return await answerRound<Record<string, unknown>>({
        inputs: context.inputs,
        extra,
        binding,
        state,
        serverId,
        // A 2025 backend may push a request to a 2026-07-28 client during it: parked in the call, asked by a round.
        parks: extra.clientEra.asksClientBy === 'park',
        send: async (attempt) => {
          const result = await hub.gateway.getPrompt(serverId, prompt, args, attemptOptions(options, attempt));
          // The resources the result links become readable.
          hub.routes.noteLinks(serverId, result);
          return result;
        },
        onDropped: (reason) =>
          hub.logger.warn('a prompts/get waiting for the client to answer was dropped and cancelled', {
            server: serverId,
            prompt,
            reason,
          }),
      });
    } catch (error) {
      throw toForwardedError(error, name);
    }
  });
}

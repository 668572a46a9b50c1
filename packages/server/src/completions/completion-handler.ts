import type { CompleteParams } from '../forwarding/backend-gateway.js';
import { backendOptions, type ForwardingContext } from '../forwarding/forwarding-context.js';
import type { ParamsCheckingServer } from '../params-checking-server.js';
import { JsonRpcWireError, toForwardedError } from '../wire-errors.js';
import { JsonRpcErrorCode } from '@search-mcp/shared';

/**
 * `completion/complete`, routed by its `ref`: a prompt by its exposed name (the backend gets its own name), a
 * resource template by the server that lists exactly that template (config order), else by the resource's route. A
 * server that offers no completions completes nothing (`values: []`); an unknown ref is `-32602`.
 */
export function registerCompletionHandler(server: ParamsCheckingServer, context: ForwardingContext): void {
  const { hub } = context;
  server.handle('completion/complete', async (request, extra) => {
    const { ref, argument, context: completionContext, _meta } = request.params;
    await context.startupSettled(extra);
    let serverId: string | undefined;
    let backendRef: CompleteParams['ref'];
    try {
      const visible = await hub.visibleServerIds(context.callerOf(_meta, extra));
      if (ref.type === 'ref/prompt') {
        const target = (await hub.prompts(visible)).resolve(ref.name);
        serverId = target?.serverId;
        backendRef = { type: 'ref/prompt', name: target?.name ?? ref.name };
      } else {
        const owners = await hub.routes.serversWithTemplate(ref.uri, visible);
        serverId = owners[0] ?? (await hub.routes.candidates(ref.uri, visible))[0];
        backendRef = { type: 'ref/resource', uri: ref.uri };
      }
    } catch (error) {
      throw toForwardedError(error, 'completion/complete');
    }
    if (serverId === undefined) {
      const what = ref.type === 'ref/prompt' ? `Prompt not found: ${ref.name}` : `Resource not found: ${ref.uri}`;
      throw new JsonRpcWireError(JsonRpcErrorCode.InvalidParams, what);
    }
    if (!hub.offers(serverId, 'completions')) return { completion: { values: [] } };
    try {
      return await hub.gateway.complete(
        serverId,
        {
          ref: backendRef,
          argument,
          ...(completionContext?.arguments ? { context: { arguments: completionContext.arguments } } : {}),
        },
        backendOptions(context, _meta, extra),
      );
    } catch (error) {
      throw toForwardedError(error, 'completion/complete');
    }
  });
}

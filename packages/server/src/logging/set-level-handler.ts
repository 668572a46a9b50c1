import type { ForwardingContext } from '../forwarding/forwarding-context.js';
import type { ParamsCheckingServer } from '../params-checking-server.js';
import { toForwardedError } from '../wire-errors.js';

/**
 * `logging/setLevel`: this session gets backend log messages at that level and above (as `notifications/message`
 * with the server id as `logger`); the backends it sees are set to the most verbose level any session asked for.
 * Replaces the SDK `Server`'s own handler, which only filters what this process logs itself.
 */
export function registerSetLevelHandler(server: ParamsCheckingServer, context: ForwardingContext): void {
  const { hub } = context;
  server.handle('logging/setLevel', async (request, extra) => {
    try {
      const visible = await hub.visibleServerIds(context.callerOf(request.params._meta, extra));
      await hub.setLevel(context.session, request.params.level, visible);
    } catch (error) {
      throw toForwardedError(error, 'logging/setLevel');
    }
    return {};
  });
}

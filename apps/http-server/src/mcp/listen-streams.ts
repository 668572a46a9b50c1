import { createMcpHandler, type McpHttpHandler } from '@modelcontextprotocol/server';
import type { Caller } from '@search-mcp/catalog';
import type { SearchMcpRuntime } from '@search-mcp/runtime';
import { errorMessage, isRecord, type Logger, type SecretRedactor } from '@search-mcp/shared';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { authInfoOf } from './caller-auth-info.js';
import { toolListOf } from './caller-tool-list.js';
import type { EraServerFactory } from './era-server-factory.js';
import type { McpServerOverrides } from './mcp-server-factory.js';
import { PerRequestInstances } from './per-request-instances.js';
import { sendWebResponse, toWebRequest } from './web-request-bridge.js';

/** What the listen streams hear backend changes from and subscribe resources through: the runtime's hub. */
export type ListenHub = Pick<
  SearchMcpRuntime['hub'],
  'gateway' | 'visibleServerIds' | 'subscribeListen' | 'unsubscribeListen'
>;

export interface ListenStreamsOptions {
  hub: ListenHub;
  serverFactory: EraServerFactory;
  /** The rules of a request of `caller` (its project, its token). */
  overridesFor(caller: Caller): McpServerOverrides;
  redactor: SecretRedactor;
  logger: Logger;
  /** Open streams at most, all tokens together. */
  maxStreams: number;
  /** Open streams at most per token (anonymous callers share one count). */
  maxStreamsPerToken: number;
  /** Quiet time after the last backend change before listeners hear of it. Default 200 ms. */
  debounceMs?: number;
}

export interface ListenStreams {
  /** Streams open now. */
  readonly openCount: number;
  /** Serves one `subscriptions/listen` request; resolves when its stream has ended. */
  serve(request: FastifyRequest, reply: FastifyReply, caller: Caller): Promise<void>;
  /** Ends every stream the graceful way (the empty `subscriptions/listen` result) and stops hearing the backends. */
  close(): Promise<void>;
}

/** Resource URIs one stream may subscribe to. */
export const maxResourceSubscriptions = 100;

const anonymous = '\u0000anonymous';

/** The listeners of one caller (token and project): they see the same servers, so they hear the same changes. */
interface CallerGroup {
  caller: Caller;
  handler: McpHttpHandler;
  streams: number;
  /** What `tools/list` gave this caller when last looked at (undefined: not looked at yet). */
  tools: string | undefined;
  /** Tool checks run one after another: a slow one never overwrites a newer answer. */
  checking: Promise<void>;
  pending: { kinds: Set<'resources' | 'prompts'>; timer: NodeJS.Timeout } | undefined;
}

/**
 * `subscriptions/listen` for 2026-07-28 clients: the long-lived stream that replaces the 2025 GET stream and
 * `resources/subscribe`. The SDK's listen router writes the wire (acknowledgement first, the opted-in notification
 * types only, keep-alives, the graceful end); this decides who hears what. Every caller (token + project) gets its own
 * handler and event bus, so a change is published only to callers who can see the server it came from
 * (docs/projects-and-tokens.md, "Visibility"): `tools/list_changed` when the list the caller would get now differs from
 * the one it got last (meta mode: a pinned tool came or went; proxy mode: any of its tools), `resources/list_changed`
 * and `prompts/list_changed` when a server it sees says so, `resources/updated` for URIs it subscribed on the stream
 * (subscribed at the backend while the stream is open). Log messages never go here: on 2026-07-28 they belong to the
 * response of the request they relate to. Open streams are capped per token and in total; they are not calls in flight,
 * so they never hold up a shutdown, which ends them first.
 */
export function createListenStreams(options: ListenStreamsOptions): ListenStreams {
  const { hub, logger } = options;
  const debounceMs = options.debounceMs ?? 200;
  const groups = new Map<string, CallerGroup>();
  const openPerToken = new Map<string, number>();
  const instances = new PerRequestInstances();
  let open = 0;
  let closed = false;
  let toolsTimer: NodeJS.Timeout | undefined;

  const groupFor = (caller: Caller): CallerGroup => {
    const key = `${caller.tokenId ?? anonymous}\u0000${caller.projectId ?? ''}`;
    let group = groups.get(key);
    if (!group) {
      const handler = createMcpHandler(
        // The SDK acknowledges only what the instance announces; it answers nothing else here but this caller's
        // `tools/list` checks.
        (context) => {
          const server = options.serverFactory({ era: context.era }, options.overridesFor(caller));
          return instances.track(context.requestInfo, server);
        },
        {
          legacy: 'reject',
          maxSubscriptions: options.maxStreamsPerToken,
          onerror: (error) => logger.debug('listen stream', { error: error.message }),
        },
      );
      group = { caller, handler, streams: 0, tools: undefined, checking: Promise.resolve(), pending: undefined };
      groups.set(key, group);
    }
    return group;
  };

  const checkTools = (group: CallerGroup): void => {
    group.checking = group.checking.then(async () => {
      if (group.streams === 0 || closed) return;
      try {
        const tools = await toolListOf(group.handler, group.caller, instances);
        if (group.tools !== undefined && tools !== group.tools) group.handler.notify.toolsChanged();
        group.tools = tools;
      } catch (error) {
        logger.debug('could not check a listener tool list for changes', { error: errorMessage(error) });
      }
    });
  };

  /** Calls `each` for every group whose caller sees `serverId` now. */
  const forGroupsSeeing = async (serverId: string, each: (group: CallerGroup) => void): Promise<void> => {
    await Promise.all(
      [...groups.values()].map(async (group) => {
        const visible = await hub.visibleServerIds(group.caller).catch(() => [] as string[]);
        if (visible.includes(serverId) && group.streams > 0) each(group);
      }),
    );
  };

  const listChanged = (kind: 'resources' | 'prompts') => (serverId: string) =>
    void forGroupsSeeing(serverId, (group) => {
      if (group.pending) {
        group.pending.kinds.add(kind);
        return;
      }
      const timer = setTimeout(() => {
        const kinds = group.pending?.kinds ?? new Set();
        group.pending = undefined;
        if (kinds.has('resources')) group.handler.notify.resourcesChanged();
        if (kinds.has('prompts')) group.handler.notify.promptsChanged();
      }, debounceMs);
      timer.unref();
      group.pending = { kinds: new Set([kind]), timer };
    });
  const onResourcesChanged = listChanged('resources');
  const onPromptsChanged = listChanged('prompts');
  const onResourceUpdated = (serverId: string, params: { uri: string }) =>
    void forGroupsSeeing(serverId, (group) => group.handler.notify.resourceUpdated(params.uri));
  const onToolsChanged = () => {
    if (toolsTimer) clearTimeout(toolsTimer);
    toolsTimer = setTimeout(() => {
      toolsTimer = undefined;
      for (const group of groups.values()) checkTools(group);
    }, debounceMs);
    toolsTimer.unref();
  };
  hub.gateway.on('tools-changed', onToolsChanged);
  hub.gateway.on('resources-changed', onResourcesChanged);
  hub.gateway.on('prompts-changed', onPromptsChanged);
  hub.gateway.on('resource-updated', onResourceUpdated);

  /**
   * Subscribes the stream's resource URIs at the backends that serve them for this caller, and narrows the filter to
   * those: the acknowledgement tells the client which URIs it will hear about (the hub's rule, shared with the stdio
   * app's streams).
   */
  const subscribeResources = (caller: Caller, uris: readonly string[]) => hub.subscribeListen(caller, uris);

  const refuse = (reply: FastifyReply, id: unknown, code: number, message: string) =>
    reply.code(200).send({ jsonrpc: '2.0', id: id ?? null, error: { code, message } });

  return {
    get openCount() {
      return open;
    },
    serve: async (request, reply, requestCaller) => {
      const body = isRecord(request.body) ? request.body : {};
      const params = isRecord(body.params) ? body.params : undefined;
      // The project a request names in `_meta` wins, as on every other request (the auth hook allowed it).
      const named = isRecord(params?._meta) ? params._meta.projectId : undefined;
      const caller: Caller = typeof named === 'string' ? { ...requestCaller, projectId: named } : requestCaller;
      const token = caller.tokenId ?? anonymous;
      if (closed) return refuse(reply, body.id, -32000, 'Search MCP is shutting down; retry later');
      const limitReached = (limit: 'total' | 'per token', max: number) =>
        logger.info('subscriptions/listen refused: limit reached', { limit, max, token: caller.tokenId });
      if (open >= options.maxStreams) {
        limitReached('total', options.maxStreams);
        return refuse(
          reply,
          body.id,
          -32603,
          `Subscription limit reached: ${options.maxStreams} listen streams are open; retry later`,
        );
      }
      if ((openPerToken.get(token) ?? 0) >= options.maxStreamsPerToken) {
        limitReached('per token', options.maxStreamsPerToken);
        return refuse(
          reply,
          body.id,
          -32603,
          `Subscription limit reached: this token has ${options.maxStreamsPerToken} listen streams open; close one first`,
        );
      }
      const filter = isRecord(params?.notifications) ? params.notifications : undefined;
      const uris = filter?.resourceSubscriptions;
      if (Array.isArray(uris) && uris.length > maxResourceSubscriptions) {
        return refuse(
          reply,
          body.id,
          -32602,
          `Invalid params: at most ${maxResourceSubscriptions} resourceSubscriptions per listen stream (got ${uris.length}); open another stream for more`,
        );
      }
      open += 1;
      openPerToken.set(token, (openPerToken.get(token) ?? 0) + 1);
      const group = groupFor(caller);
      group.streams += 1;
      logger.debug('subscriptions/listen stream opened', { token: caller.tokenId, project: caller.projectId, open });
      let subscribed: Array<{ serverId: string; uri: string }> = [];
      const webRequestBody = { ...body };
      try {
        if (filter && Array.isArray(uris) && uris.every((uri) => typeof uri === 'string')) {
          subscribed = await subscribeResources(caller, uris);
          const honoured = subscribed.map(({ uri }) => uri);
          webRequestBody.params = {
            ...params,
            notifications: { ...filter, resourceSubscriptions: honoured },
          };
        }
        const webRequest = toWebRequest(request, webRequestBody);
        let response: Response;
        try {
          response = await group.handler.fetch(webRequest, {
            authInfo: authInfoOf(caller),
            parsedBody: webRequestBody,
          });
        } finally {
          instances.release(webRequest);
        }
        // The list this listener starts from: a change is a difference from it.
        if (filter?.toolsListChanged === true && group.tools === undefined) checkTools(group);
        await sendWebResponse(reply, response, options.redactor);
      } finally {
        open -= 1;
        const left = (openPerToken.get(token) ?? 1) - 1;
        if (left > 0) openPerToken.set(token, left);
        else openPerToken.delete(token);
        group.streams -= 1;
        logger.debug('subscriptions/listen stream ended', { token: caller.tokenId, project: caller.projectId, open });
        hub.unsubscribeListen(subscribed);
        if (group.streams === 0) endGroup(group);
      }
    },
    close: async () => {
      closed = true;
      if (toolsTimer) clearTimeout(toolsTimer);
      hub.gateway.off('tools-changed', onToolsChanged);
      hub.gateway.off('resources-changed', onResourcesChanged);
      hub.gateway.off('prompts-changed', onPromptsChanged);
      hub.gateway.off('resource-updated', onResourceUpdated);
      await Promise.all([...groups.values()].map((group) => endGroup(group)));
    },
  };

  async function endGroup(group: CallerGroup): Promise<void> {
    for (const [key, value] of groups) if (value === group) groups.delete(key);
    if (group.pending) clearTimeout(group.pending.timer);
    group.pending = undefined;
    await group.handler.close();
  }
}

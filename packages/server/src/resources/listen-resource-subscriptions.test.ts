import { type LogFields, type Logger, silentLogger } from '@search-mcp/shared';
import { describe, expect, it } from 'vitest';
import { subscribeListenResources } from './listen-resource-subscriptions.js';
import type { ListenSubscriptionsHub } from './listen-subscriptions-hub.js';

/** A logger that keeps its debug records. */
function debugRecorder() {
  const records: Array<{ message: string; fields: LogFields | undefined }> = [];
  const logger: Logger = {
    ...silentLogger,
    debug: (message, fields) => records.push({ message, fields }),
    child: () => logger,
  };
  return { records, logger };
}

/**
 * The hub's visibility and routing fail here as a reload or a server gone mid-listing makes them fail, which the
 * fixtures cannot stage on demand: `subs` (offers subscriptions) serves every uri it is visible for
 * unless told otherwise.
 */
function hubOf(overrides: {
  visible?: () => Promise<string[]>;
  candidates?: (uri: string, visible: string[]) => Promise<string[]>;
}) {
  const subscribed: string[] = [];
  const hub = {
    gateway: {
      serverCapabilities: () => ({ resources: { subscribe: true } }),
      subscribeResource: async (serverId: string, uri: string) => {
        subscribed.push(`${serverId} ${uri}`);
      },
    },
    routes: { candidates: overrides.candidates ?? (async (_uri: string, visible: string[]) => visible) },
    visibleServerIds: overrides.visible ?? (async () => ['subs']),
  } as unknown as ListenSubscriptionsHub;
  return { hub, subscribed };
}

describe('subscribeListenResources when the hub cannot say where a uri is served', () => {
  it('subscribes nothing and logs why when the visible servers cannot be found', async () => {
    const { records, logger } = debugRecorder();
    const { hub, subscribed } = hubOf({ visible: () => Promise.reject(new Error('config reloading')) });
    expect(await subscribeListenResources(hub, {}, ['res://subs/1'], logger)).toEqual([]);
    expect(subscribed).toEqual([]);
    expect(records).toContainEqual({
      message: 'could not find the servers a listen stream may subscribe at',
      fields: { error: 'config reloading' },
    });
  });

  it('leaves out a uri whose servers cannot be found, logging it, and subscribes the others', async () => {
    const { records, logger } = debugRecorder();
    const { hub, subscribed } = hubOf({
      candidates: async (uri) => (uri === 'res://subs/2' ? Promise.reject(new Error('listing failed')) : ['subs']),
    });
    expect(await subscribeListenResources(hub, {}, ['res://subs/1', 'res://subs/2'], logger)).toEqual([
      { serverId: 'subs', uri: 'res://subs/1' },
    ]);
    expect(subscribed).toEqual(['subs res://subs/1']);
    expect(records).toContainEqual({
      message: 'could not find the servers of a resource for a listen stream',
      fields: { uri: 'res://subs/2', error: 'listing failed' },
    });
  });
});

import { silentLogger } from '@search-mcp/shared';
import { describe, expect, it } from 'vitest';
import { ResourceSubscriptions } from './resource-subscriptions.js';

/**
 * A server's capabilities change only across a reconnect, which the fixtures cannot stage on demand: here a gateway
 * whose capabilities the test sets, recording what the subscriptions ask of it.
 */
function gatewayOf(capabilities: Record<string, Record<string, unknown>>) {
  const calls: string[] = [];
  let failNext = false;
  let failUnsubscribe = false;
  return {
    calls,
    capabilities,
    failNextSubscribe() {
      failNext = true;
    },
    failUnsubscribes() {
      failUnsubscribe = true;
    },
    serverCapabilities: (serverId: string) => capabilities[serverId],
    async subscribeResource(serverId: string, uri: string) {
      calls.push(`subscribe ${serverId} ${uri}`);
      if (failNext) {
        failNext = false;
        throw new Error('refused');
      }
    },
    async unsubscribeResource(serverId: string, uri: string) {
      calls.push(`unsubscribe ${serverId} ${uri}`);
      if (failUnsubscribe) throw new Error(`MCP server '${serverId}' is not running`);
    },
  };
}

describe('subscriptions waiting for their server to offer subscriptions', () => {
  it('are not sent while it offers none, are sent once it does, and end at the server then', async () => {
    const gateway = gatewayOf({ plain: { resources: {} }, subs: { resources: { subscribe: true } } });
    const subscriptions = new ResourceSubscriptions(gateway, silentLogger);
    await subscriptions.subscribe('s1', 'plain', 'a://1');
    await subscriptions.subscribe('s1', 'subs', 'b://1');
    expect(gateway.calls).toEqual(['subscribe subs b://1']);
    expect(subscriptions.hears('s1', 'plain', 'a://1')).toBe(true);

    await subscriptions.sendWaiting();
    expect(gateway.calls).toEqual(['subscribe subs b://1']);
    gateway.capabilities.plain = { resources: { subscribe: true } };
    await subscriptions.sendWaiting();
    await subscriptions.sendWaiting();
    expect(gateway.calls).toEqual(['subscribe subs b://1', 'subscribe plain a://1']);

    await subscriptions.unsubscribe('s1', 'a://1');
    expect(gateway.calls.at(-1)).toBe('unsubscribe plain a://1');
    expect(subscriptions.hears('s1', 'plain', 'a://1')).toBe(false);
  });

  it('one the server refused waits for the next change; a closed session unsubscribes only what servers hold', async () => {
    const gateway = gatewayOf({ plain: { resources: {} } });
    const subscriptions = new ResourceSubscriptions(gateway, silentLogger);
    await subscriptions.subscribe('s1', 'plain', 'a://1');
    await subscriptions.subscribe('s1', 'plain', 'a://2');
    gateway.capabilities.plain = { resources: { subscribe: true } };
    gateway.failNextSubscribe();
    await subscriptions.sendWaiting();
    expect(gateway.calls).toEqual(['subscribe plain a://1', 'subscribe plain a://2']);
    await subscriptions.sendWaiting();
    expect(gateway.calls.at(-1)).toBe('subscribe plain a://1');

    await subscriptions.subscribe('s1', 'plain', 'a://3');
    gateway.capabilities.plain = { resources: {} };
    await subscriptions.subscribe('s1', 'plain', 'a://4');
    gateway.calls.length = 0;
    subscriptions.removeSession('s1');
    expect(gateway.calls.sort()).toEqual([
      'unsubscribe plain a://1',
      'unsubscribe plain a://2',
      'unsubscribe plain a://3',
    ]);
  });

  it('an unsubscribe the server cannot take still ends the subscription, without an error', async () => {
    const gateway = gatewayOf({ subs: { resources: { subscribe: true } } });
    const subscriptions = new ResourceSubscriptions(gateway, silentLogger);
    await subscriptions.subscribe('s1', 'subs', 'b://1');
    gateway.failUnsubscribes();
    await subscriptions.unsubscribe('s1', 'b://1');
    expect(gateway.calls.at(-1)).toBe('unsubscribe subs b://1');
    expect(subscriptions.hears('s1', 'subs', 'b://1')).toBe(false);
  });
});

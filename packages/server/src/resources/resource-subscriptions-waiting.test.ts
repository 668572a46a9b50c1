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
  let held: { promise: Promise<void>; resolve: () => void } | undefined;
  return {
    calls,
    capabilities,
    /** The next subscribe settles when the test says (the returned handle), as a slow server's would. */
    holdNextSubscribe() {
      let resolve = () => {};
      const promise = new Promise<void>((settle) => {
        resolve = settle;
      });
      held = { promise, resolve };
      return held;
    },
    failNextSubscribe() {
      failNext = true;
    },
    failUnsubscribes() {
      failUnsubscribe = true;
    },
    serverCapabilities: (serverId: string) => capabilities[serverId],
    async subscribeResource(serverId: string, uri: string) {
      calls.push(`subscribe ${serverId} ${uri}`);
      const answer = held?.promise;
      held = undefined;
      await answer;
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

describe('a subscription that ends while it is being sent', () => {
  it('is unsubscribed at the server once the server took it, when its session closed meanwhile', async () => {
    const gateway = gatewayOf({ subs: { resources: { subscribe: true } } });
    const subscriptions = new ResourceSubscriptions(gateway, silentLogger);
    const answer = gateway.holdNextSubscribe();
    const subscribing = subscriptions.subscribe('s1', 'subs', 'b://1');
    subscriptions.removeSession('s1');
    expect(gateway.calls).toEqual(['subscribe subs b://1']);
    answer.resolve();
    await subscribing;
    expect(gateway.calls).toEqual(['subscribe subs b://1', 'unsubscribe subs b://1']);
    expect(subscriptions.hears('s1', 'subs', 'b://1')).toBe(false);
  });

  it('is unsubscribed at the server once the server took it, when its session unsubscribed meanwhile', async () => {
    const gateway = gatewayOf({ subs: { resources: { subscribe: true } } });
    const subscriptions = new ResourceSubscriptions(gateway, silentLogger);
    const answer = gateway.holdNextSubscribe();
    const subscribing = subscriptions.subscribe('s1', 'subs', 'b://1');
    await subscriptions.unsubscribe('s1', 'b://1');
    answer.resolve();
    await subscribing;
    expect(gateway.calls).toEqual(['subscribe subs b://1', 'unsubscribe subs b://1']);
    expect(subscriptions.hears('s1', 'subs', 'b://1')).toBe(false);
  });

  it('a second subscribe of the session waits for the first send and sends nothing more', async () => {
    const gateway = gatewayOf({ subs: { resources: { subscribe: true } } });
    const subscriptions = new ResourceSubscriptions(gateway, silentLogger);
    const answer = gateway.holdNextSubscribe();
    const first = subscriptions.subscribe('s1', 'subs', 'b://1');
    let secondSettled = false;
    const second = subscriptions.subscribe('s1', 'subs', 'b://1').then(() => {
      secondSettled = true;
    });
    // Both subscribes ran up to their await; the second waits on the first's send.
    await Promise.resolve();
    expect(secondSettled).toBe(false);
    answer.resolve();
    await Promise.all([first, second]);
    expect(gateway.calls).toEqual(['subscribe subs b://1']);
    await subscriptions.unsubscribe('s1', 'b://1');
    expect(gateway.calls).toEqual(['subscribe subs b://1', 'unsubscribe subs b://1']);
  });

  it('a refused subscribe leaves nothing behind, so the next one is sent again', async () => {
    const gateway = gatewayOf({ subs: { resources: { subscribe: true } } });
    const subscriptions = new ResourceSubscriptions(gateway, silentLogger);
    gateway.failNextSubscribe();
    await expect(subscriptions.subscribe('s1', 'subs', 'b://1')).rejects.toThrow('refused');
    expect(subscriptions.hears('s1', 'subs', 'b://1')).toBe(false);
    await subscriptions.subscribe('s1', 'subs', 'b://1');
    expect(gateway.calls).toEqual(['subscribe subs b://1', 'subscribe subs b://1']);
  });

  it('a waiting one the server refuses after its session closed no longer counts as waiting', async () => {
    const gateway = gatewayOf({ plain: { resources: {} } });
    const subscriptions = new ResourceSubscriptions(gateway, silentLogger);
    await subscriptions.subscribe('s1', 'plain', 'a://1');
    expect(subscriptions.waitingCount).toBe(1);
    gateway.capabilities.plain = { resources: { subscribe: true } };
    const answer = gateway.holdNextSubscribe();
    gateway.failNextSubscribe();
    const sending = subscriptions.sendWaiting();
    subscriptions.removeSession('s1');
    answer.resolve();
    await sending;
    expect(gateway.calls).toEqual(['subscribe plain a://1']);
    expect(subscriptions.waitingCount).toBe(0);
  });
});

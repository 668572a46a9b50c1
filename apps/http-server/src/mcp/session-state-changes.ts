import { isRecord } from '@search-mcp/shared';
import type { SharedSessionRecord } from './shared-session-record.js';

/**
 * What a client's POST changes in its session that a rebuilt session must have too: the `logging/setLevel` level and
 * the `resources/subscribe` URIs. The new record, or undefined when the body changes neither (the common case: no
 * store write).
 */
export function recordAfter(record: SharedSessionRecord, body: unknown): SharedSessionRecord | undefined {
  const messages = Array.isArray(body) ? body : [body];
  let changed: SharedSessionRecord | undefined;
  for (const message of messages) {
    if (!isRecord(message) || !isRecord(message.params)) continue;
    const { method, params } = message;
    const current: SharedSessionRecord = changed ?? record;
    if (method === 'logging/setLevel' && typeof params.level === 'string') {
      changed = { ...current, logLevel: params.level };
    } else if (
      (method === 'resources/subscribe' || method === 'resources/unsubscribe') &&
      typeof params.uri === 'string'
    ) {
      const uris = new Set(current.subscriptions ?? []);
      if (method === 'resources/subscribe') uris.add(params.uri);
      else uris.delete(params.uri);
      changed = { ...current, subscriptions: [...uris] };
    }
  }
  return changed;
}

import type { RequestId } from '@modelcontextprotocol/server';
import { isRecord } from '@search-mcp/shared';
import type { SharedSessionRecord } from './shared-session-record.js';

/** A session's record keeps at most this many subscribed URIs; later ones work here but are not carried over. */
export const maxRecordedSubscriptions = 100;
/** A URI longer than this is not recorded (the record is rewritten and published whole on every change). */
export const maxRecordedUriLength = 2048;

/**
 * A client request that changes what a rebuilt session must have too: the `logging/setLevel` level or a
 * `resources/subscribe`/`unsubscribe` URI. It is applied to the record only once the server answered it with a
 * result: a level or URI the server refused is never stored or replayed elsewhere.
 */
export interface StateChange {
  requestId: RequestId;
  /** The record with this change, or undefined when it changes nothing (or would pass the caps). */
  apply(record: SharedSessionRecord): SharedSessionRecord | undefined;
}

/** The state-changing requests of a POST body (one message or a batch); empty in the common case. */
export function stateChangesIn(body: unknown): StateChange[] {
  const messages = Array.isArray(body) ? body : [body];
  const changes: StateChange[] = [];
  for (const message of messages) {
    if (!isRecord(message) || !isRecord(message.params)) continue;
    const { method, params, id } = message;
    if (typeof id !== 'string' && typeof id !== 'number') continue;
    if (method === 'logging/setLevel' && typeof params.level === 'string') {
      const level = params.level;
      changes.push({
        requestId: id,
        apply: (record) => (record.logLevel === level ? undefined : { ...record, logLevel: level }),
      });
    } else if (
      (method === 'resources/subscribe' || method === 'resources/unsubscribe') &&
      typeof params.uri === 'string'
    ) {
      const uri = params.uri;
      const subscribe = method === 'resources/subscribe';
      changes.push({ requestId: id, apply: (record) => withSubscription(record, uri, subscribe) });
    }
  }
  return changes;
}

function withSubscription(
  record: SharedSessionRecord,
  uri: string,
  subscribe: boolean,
): SharedSessionRecord | undefined {
  const uris = new Set(record.subscriptions ?? []);
  if (subscribe === uris.has(uri)) return undefined;
  if (subscribe) {
    if (uri.length > maxRecordedUriLength || uris.size >= maxRecordedSubscriptions) return undefined;
    uris.add(uri);
  } else {
    uris.delete(uri);
  }
  return { ...record, subscriptions: [...uris] };
}

import type { JSONRPCMessage } from '@modelcontextprotocol/client';
import { isRecord } from '@search-mcp/shared';

/**
 * A 2026-07-28 backend's message as the 2.x client must see it: a result without `resultType` becomes `complete`.
 * The revision asks servers to send it, but clients must take its absence as `complete` (the conformance suite
 * checks it), where the 2.x SDK refuses such a result: every call to that backend would fail. Applied by the
 * transport the client connects over (`SideChannelTransport`), before the SDK reads the message. Only results are
 * touched; errors, requests, notifications and results that name a type pass as they are.
 */
export function withCompleteResultType<T extends JSONRPCMessage>(message: T): T {
  const raw = message as { method?: unknown; result?: unknown };
  if (raw.method !== undefined || !isRecord(raw.result) || raw.result.resultType !== undefined) return message;
  return { ...message, result: { ...raw.result, resultType: 'complete' } };
}

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { JSONRPCResultResponse } from '@modelcontextprotocol/sdk/types.js';

/**
 * The one file of this package that reaches below the 1.x SDK `Client`'s public API (docs/sdk-couplings.md, 7). The
 * SDK has no public hook for it yet; an SDK upgrade that moves it fails `legacy-client-internals.test.ts`, not a
 * forwarded call in production.
 */

/** The member below, as the SDK declares it (private in its types). */
interface ClientInternals {
  _onresponse(response: JSONRPCResultResponse): void;
}

const sdkClient = Client.prototype as unknown as Partial<ClientInternals>;

/**
 * The connection's response dispatch (`_onresponse`), called with a message already known to be a result response:
 * skips the SDK's classification of every inbound message, a zod parse before the dispatch parses it again.
 * `undefined` when the SDK no longer has it (callers then keep the SDK's path).
 */
export function sdkResponseDispatch(client: Client): ((response: JSONRPCResultResponse) => void) | undefined {
  const dispatch = sdkClient._onresponse;
  return typeof dispatch === 'function' ? (response) => dispatch.call(client, response) : undefined;
}

/**
 * What is not where this file expects it on the installed SDK's `Client` (empty when all is): the member gone, or
 * taking another number of parameters (a changed shape). The guard test prints these.
 */
export function legacyClientInternalsProblems(): string[] {
  const member: unknown = sdkClient._onresponse;
  if (typeof member !== 'function')
    return [
      'Client.prototype._onresponse is gone from the installed 1.x SDK (docs/sdk-couplings.md says what uses it)',
    ];
  if (member.length !== 1)
    return [
      `Client.prototype._onresponse now declares ${member.length} parameters, not 1: its shape changed ` +
        '(docs/sdk-couplings.md says what uses it)',
    ];
  return [];
}

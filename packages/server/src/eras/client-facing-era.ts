import type { ClientCapabilities } from '@modelcontextprotocol/server';
import type { LoggingLevel } from '@search-mcp/shared';

/**
 * What differs between the protocol eras on the side that serves AI clients, named, with each era's answers in its
 * own file (`legacy-client-era.ts`: the 2025 revisions; `modern-client-era.ts`: 2026-07-28). Handlers ask these
 * rules instead of comparing era names, so a behaviour of one era is found, read and changed in one place. The
 * server README's "Protocol eras" section describes the behaviours.
 */
export interface ClientFacingEra {
  readonly name: 'legacy' | 'modern';
  /**
   * Whether a server instance can reach its client outside a request (resource updates, log messages). 2025: over
   * the session's stream, which a stateless instance has not; 2026-07-28: over streams the serving entry provides
   * (`subscriptions/listen`, the response stream of a request that asked for log messages), stateless or not.
   */
  hasStreamOutsideRequests(stateless: boolean): boolean;
  /**
   * How a backend's request for the client's input (elicitation, sampling, roots) reaches this client: `push` = a
   * server-to-client request on the session; `park` = held in the client's call and asked for by an `input_required`
   * answer, which the client retries with its answers.
   */
  readonly asksClientBy: 'push' | 'park';
  /**
   * Whether a client declares what it can be asked once per session (`initialize`, 2025) or in every request's
   * envelope (2026-07-28): a backend's request made for a 2026 client is bound by that request's declaration.
   */
  readonly declaresCapabilitiesPer: 'session' | 'request';
  /**
   * What a request's client can be asked: 2026-07-28 declares it per request in the envelope (a request that declared
   * nothing can be asked nothing); 2025 declared it once, in `initialize`.
   */
  requestCapabilities(
    envelopeCapabilities: unknown,
    session: { getClientCapabilities(): ClientCapabilities | undefined },
  ): ClientCapabilities | undefined;
  /**
   * Who chooses which backend log messages a client hears: `session` = the session's `logging/setLevel`, heard on
   * the session's streams (2025); `request` = each request's own level, heard only on that request's response stream
   * (2026-07-28, where the spec forbids log messages outside a request that asked for them).
   */
  readonly logsBy: 'session' | 'request';
  /**
   * The log level a request asked for itself (2026-07-28: its envelope's `logLevel`; without one it hears no log
   * messages). `undefined` in 2025, where the session's `logging/setLevel` rules.
   */
  requestLogLevel(envelope: Record<string, unknown> | undefined): LoggingLevel | undefined;
  /** Whether answers say how long they may be reused and by whom (`ttlMs`, `cacheScope`): 2026-07-28 only. */
  readonly hintsCaches: boolean;
  /**
   * How a client asks for a task: 2025 by a call's `params.task`; 2026-07-28 through the tasks extension, which a
   * client declares per request (`tasks/get|update|cancel` exist only for such a client).
   */
  readonly tasksBy: 'call-param' | 'extension';
  /** Whether the client is known at its first request (2026-07-28: the envelope names it), not at `initialized`. */
  readonly namedByFirstRequest: boolean;
}

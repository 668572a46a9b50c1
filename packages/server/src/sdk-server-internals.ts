import {
  type JSONRPCRequest,
  type MessageExtraInfo,
  type Result,
  Server,
  type ServerContext,
} from '@modelcontextprotocol/server';

/**
 * The one file of this package that reaches below the 2.x SDK `Server`'s public API. Each entry is a piece the SDK
 * has no public hook for yet; `docs/sdk-couplings.md` and `docs/upstream/server-hooks.md` say why we need it, what it
 * costs without it, and the hook we propose upstream. An SDK upgrade that moves one of these fails `sdk-server-internals.test.ts`, not a
 * forwarded call in production.
 */

type Handler = (request: JSONRPCRequest, context: ServerContext) => Promise<Result>;

/** The members below, as the SDK declares them (private or protected in its types). */
interface ServerInternals {
  _wrapHandler(method: string, handler: Handler): Handler;
  _invokeInputRequiredCapableHandler(
    method: string,
    handler: Handler,
    request: JSONRPCRequest,
    context: ServerContext,
  ): Promise<Result>;
  _onrequest(request: JSONRPCRequest, extra?: MessageExtraInfo): void;
}

const sdkServer = Server.prototype as unknown as Partial<ServerInternals>;

/**
 * The `Server`'s own wrapper of a handler (`_wrapHandler`, the SDK's documented hook for subclasses): cache hints and
 * the multi-round-trip seam of `prompts/get` and `resources/read`. A subclass that overrides the hook calls this for
 * the methods it does not wrap itself.
 */
export function sdkHandlerWrapper(server: Server, method: string, handler: Handler): Handler {
  return (sdkServer._wrapHandler as ServerInternals['_wrapHandler']).call(server, method, handler);
}

/**
 * The `Server`'s multi-round-trip seam alone (`_invokeInputRequiredCapableHandler`): an `input_required` answer is
 * checked against a 2026-07-28 request's capabilities, or fulfilled with real push requests to a 2025 client by the
 * SDK's legacy shim, which re-enters `handler` with the answers. The public wrapper around it also re-validates
 * `tools/call` results, which a proxy must not do (backends' content blocks pass as they are).
 */
export function invokeInputRequiredSeam(
  server: Server,
  method: string,
  handler: Handler,
  request: JSONRPCRequest,
  context: ServerContext,
): Promise<Result> {
  const seam = sdkServer._invokeInputRequiredCapableHandler as ServerInternals['_invokeInputRequiredCapableHandler'];
  return seam.call(server, method, handler, request, context);
}

/**
 * The connection's request dispatch (`_onrequest`), called with a message already known to be a request: skips the
 * SDK's classification of every inbound message, which tries two response schemas before the request schema.
 * `undefined` when the SDK no longer has it (callers then keep the SDK's path).
 */
export function sdkRequestDispatch(
  server: Server,
): ((request: JSONRPCRequest, extra?: MessageExtraInfo) => void) | undefined {
  const dispatch = sdkServer._onrequest;
  return typeof dispatch === 'function' ? (request, extra) => dispatch.call(server, request, extra) : undefined;
}

/** Each member above as this file calls it: its name and how many parameters it declares. */
const expectedMembers: ReadonlyArray<readonly [keyof ServerInternals, number]> = [
  ['_wrapHandler', 2],
  ['_invokeInputRequiredCapableHandler', 4],
  ['_onrequest', 2],
];

/**
 * What is not where this file expects it on the installed SDK's `Server`, one sentence each (empty when all is):
 * a member gone, or taking another number of parameters (a changed shape). The guard test prints these, so an SDK
 * upgrade that moves one says which coupling to redo (docs/sdk-couplings.md lists them).
 */
export function sdkServerInternalsProblems(): string[] {
  return expectedMembers.flatMap(([name, parameters]) => {
    const member: unknown = sdkServer[name];
    if (typeof member !== 'function')
      return [`Server.prototype.${name} is gone from the installed SDK (docs/sdk-couplings.md says what uses it)`];
    if (member.length !== parameters)
      return [
        `Server.prototype.${name} now declares ${member.length} parameters, not ${parameters}: its shape changed ` +
          '(docs/sdk-couplings.md says what uses it)',
      ];
    return [];
  });
}

/** Whether every member above is where this file expects it (checked by the test that guards an SDK upgrade). */
export function sdkServerInternalsPresent(): boolean {
  return sdkServerInternalsProblems().length === 0;
}

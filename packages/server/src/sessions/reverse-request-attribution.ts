import type { ClientCapabilities } from '@modelcontextprotocol/server';

/** The methods a backend may ask of the client. */
export type ReverseMethod = 'sampling/createMessage' | 'elicitation/create' | 'roots/list';

/** A client session as attribution sees it. */
export interface AttributableSession {
  readonly key: string;
  /** What the client declared in `initialize`; undefined before it did (or never will: HTTP stateless). */
  capabilities(): ClientCapabilities | undefined;
}

/** A request of ours in flight to the backend, and the client session whose request caused it. */
export interface InFlightOrigin<S extends AttributableSession> {
  readonly session: S;
  readonly method: string;
  /** Tool, prompt or uri. */
  readonly name?: string;
  /** The caller's own handle of the request (what it sends the reverse request through); carried along. */
  readonly origin?: object;
}

export interface AttributionInput<S extends AttributableSession> {
  serverId: string;
  method: ReverseMethod;
  params: Record<string, unknown>;
  /** The backend's requests in flight, most recent first. */
  inFlight: ReadonlyArray<InFlightOrigin<S>>;
  /** The session owning the task the request names (`related-task` `_meta`), when it names one we know. */
  taskOwner?: S;
  /** The exact origin where the transport could tell (Streamable HTTP backends). */
  exactOrigin?: InFlightOrigin<S>;
}

export interface AttributionContext<S extends AttributableSession> {
  /** Every open session. */
  sessions(): readonly S[];
  /** The session that last sent `notifications/roots/list_changed` for this server, if recent. */
  rootsOwner(serverId: string): S | undefined;
  /** Whether this (server, tool) caused this method before, learned from exact attributions. */
  causedBefore(serverId: string, name: string | undefined, method: ReverseMethod): boolean;
}

export type Attribution<S extends AttributableSession> =
  | {
      kind: 'session';
      session: S;
      /** The in-flight request it rides on (its stream, on Streamable HTTP), when there is one. */
      origin?: InFlightOrigin<S>;
      /** True when no guess was involved (rules 1–3). */
      exact: boolean;
    }
  | { kind: 'none'; code: number; message: string };

/**
 * Which client session a backend's reverse request (sampling, elicitation, roots) belongs to. MCP gives no link from
 * a backend's request to the call that caused it except a related task, so the rules are, first one that yields:
 *
 * 1. the request names a task of ours → the task's owner (exact);
 * 2. the transport told the exact origin → its session (exact);
 * 3. every request in flight to that server is one session's → it (exact for one caller);
 * 4. several sessions: those able to answer (declared capability) whose tool caused this method before, else all
 *    able ones; the most recent wins (a guess: two sessions calling the same sampling tool of one backend at once
 *    cannot be told apart on stdio);
 * 5. nothing in flight: `roots/list` goes to the session that last changed its roots, or the only session there is;
 *    sampling and elicitation are refused (nobody asked for them).
 */
export function attributeReverseRequest<S extends AttributableSession>(
  input: AttributionInput<S>,
  context: AttributionContext<S>,
): Attribution<S> {
  if (input.taskOwner) {
    const origin = input.inFlight.find((entry) => entry.session === input.taskOwner);
    return { kind: 'session', session: input.taskOwner, exact: true, ...(origin ? { origin } : {}) };
  }
  if (input.exactOrigin)
    return { kind: 'session', session: input.exactOrigin.session, origin: input.exactOrigin, exact: true };
  const [latest] = input.inFlight;
  if (latest) {
    if (input.inFlight.every((entry) => entry.session === latest.session)) {
      return { kind: 'session', session: latest.session, origin: latest, exact: true };
    }
    const able = input.inFlight.filter((entry) => canAnswer(entry.session.capabilities(), input.method, input.params));
    const learned = able.filter((entry) => context.causedBefore(input.serverId, entry.name, input.method));
    const chosen = learned[0] ?? able[0];
    if (chosen) return { kind: 'session', session: chosen.session, origin: chosen, exact: false };
    return { kind: 'session', session: latest.session, origin: latest, exact: false };
  }
  if (input.method === 'roots/list') {
    const owner = context.rootsOwner(input.serverId);
    if (owner) return { kind: 'session', session: owner, exact: false };
    const sessions = context.sessions();
    if (sessions.length === 1 && sessions[0]) return { kind: 'session', session: sessions[0], exact: false };
  }
  return {
    kind: 'none',
    code: -32603,
    message: `No client of Search MCP is waiting on a call to MCP server '${input.serverId}'; ${input.method} needs the client whose call caused it`,
  };
}

/** Why `capabilities` cannot answer this request (code and message as the SDK Client says), or undefined if it can. */
export function missingCapability(
  capabilities: ClientCapabilities | undefined,
  method: ReverseMethod,
  params: Record<string, unknown>,
): { code: number; message: string } | undefined {
  if (method === 'sampling/createMessage') {
    if (!capabilities?.sampling) return { code: -32601, message: 'The client does not support sampling' };
    if ((params.tools !== undefined || params.toolChoice !== undefined) && !capabilities.sampling.tools)
      return { code: -32601, message: 'The client does not support sampling with tools' };
    return undefined;
  }
  if (method === 'elicitation/create') {
    const elicitation = capabilities?.elicitation;
    if (!elicitation) return { code: -32601, message: 'The client does not support elicitation' };
    const mode = params.mode === 'url' ? 'url' : 'form';
    // A client declaring `elicitation: {}` supports form mode only (the spec's reading of the old capability).
    const supported =
      mode === 'url' ? elicitation.url !== undefined : elicitation.form !== undefined || elicitation.url === undefined;
    if (!supported) return { code: -32602, message: `The client does not support ${mode}-mode elicitation requests` };
    return undefined;
  }
  if (!capabilities?.roots) return { code: -32601, message: 'The client does not support roots' };
  return undefined;
}

function canAnswer(
  capabilities: ClientCapabilities | undefined,
  method: ReverseMethod,
  params: Record<string, unknown>,
): boolean {
  return missingCapability(capabilities, method, params) === undefined;
}

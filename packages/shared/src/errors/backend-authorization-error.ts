import { JsonRpcErrorCode } from './json-rpc-error-code.js';
import { SearchMcpError } from './search-mcp-error.js';

const name = 'BackendAuthorizationError';
const marker = `search-mcp.error.${name}`;
const symbol = Symbol.for(marker);

/**
 * The step of OAuth to a backend that failed (docs/oauth.md): `discovery` (protected-resource or authorization-server
 * metadata), `registration` (client id metadata document or dynamic registration), `authorization` (the user has to
 * authorize, or the opener failed), `callback` (the redirect came back wrong: `state`, `iss`, an error), `token` (a token
 * request: the code exchange, or a grant without a person), `refresh`, `resource` (metadata or token for another resource), `revocation`.
 */
export type BackendAuthorizationStep =
  | 'discovery'
  | 'registration'
  | 'authorization'
  | 'callback'
  | 'token'
  | 'refresh'
  | 'resource'
  | 'revocation';

/**
 * OAuth to a backend server did not give a usable token: the message names the server and the step, never a secret.
 * `needsUser` is true when only a person can fix it (log in with `search-mcp auth <server>`): the server's state is
 * then `needs-auth`.
 */
export class BackendAuthorizationError extends SearchMcpError {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: the marker `isInstance` looks for via Symbol.for
  private readonly [symbol] = true;
  readonly serverId: string;
  readonly step: BackendAuthorizationStep;
  readonly needsUser: boolean;
  /**
   * Where the person opens the authorization, when one was begun for them (a per-user server's caller who has not
   * authorized it yet, docs/oauth-in-front.md). Safe to show: it carries a `state`, no secret.
   */
  readonly authorizationUrl?: string;

  constructor(options: {
    serverId: string;
    step: BackendAuthorizationStep;
    message: string;
    needsUser?: boolean;
    authorizationUrl?: string;
    /** HTTP status for the REST API: 400 for a bad callback, else 502 (the backend's authorization failed). */
    statusCode?: number;
    cause?: unknown;
  }) {
    super({
      name,
      code: 'BACKEND_AUTHORIZATION_ERROR',
      jsonRpcCode: JsonRpcErrorCode.ServerError,
      statusCode: options.statusCode ?? 502,
      isRetryable: false,
      message: options.message,
      cause: options.cause,
    });
    this.serverId = options.serverId;
    this.step = options.step;
    this.needsUser = options.needsUser ?? false;
    if (options.authorizationUrl !== undefined) this.authorizationUrl = options.authorizationUrl;
  }

  static override isInstance(error: unknown): error is BackendAuthorizationError {
    return SearchMcpError.hasMarker(error, marker);
  }
}

// oidc-provider ships no type declarations; these cover only the parts the OAuth fixtures use (its README and
// docs/README.md describe them). Loose on purpose: the configuration object is passed through as the library
// documents it.
declare module 'oidc-provider' {
  import type { EventEmitter } from 'node:events';
  import type { IncomingMessage, ServerResponse } from 'node:http';

  export interface AdapterPayload {
    [key: string]: unknown;
    grantId?: string;
    uid?: string;
    userCode?: string;
    consumed?: number;
  }

  export interface Adapter {
    upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void>;
    find(id: string): Promise<AdapterPayload | undefined>;
    findByUid(uid: string): Promise<AdapterPayload | undefined>;
    findByUserCode(userCode: string): Promise<AdapterPayload | undefined>;
    consume(id: string): Promise<void>;
    destroy(id: string): Promise<void>;
    revokeByGrantId(grantId: string): Promise<void>;
  }

  export interface ClientMetadata {
    client_id: string;
    client_secret?: string;
    redirect_uris?: string[];
    [key: string]: unknown;
  }

  export interface InteractionPrompt {
    name: string;
    reasons: string[];
    details: {
      missingOIDCScope?: string[];
      missingOIDCClaims?: string[];
      missingResourceScopes?: Record<string, string[]>;
      [key: string]: unknown;
    };
  }

  export interface Interaction {
    uid: string;
    prompt: InteractionPrompt;
    params: Record<string, unknown>;
    grantId?: string;
    session?: { accountId?: string };
  }

  export interface Grant {
    addOIDCScope(scope: string): void;
    addOIDCClaims(claims: string[]): void;
    addResourceScope(resource: string, scope: string): void;
    save(): Promise<string>;
  }

  /** The Koa context oidc-provider hands its events and middleware (only what the fixtures read). */
  export interface KoaContextWithOIDC {
    path: string;
    method: string;
    query: Record<string, string | string[] | undefined>;
    status: number;
    body: unknown;
    req: IncomingMessage;
    res: ServerResponse;
    request: { body?: unknown };
    get(name: string): string;
    set(name: string, value: string): void;
    redirect(url: string): void;
    response: { get(name: string): string | string[] | undefined };
    oidc?: {
      route?: string;
      params?: Record<string, unknown>;
      client?: { clientId: string };
      body?: Record<string, unknown>;
    };
  }

  /** An issued or saved token, as oidc-provider emits it with `access_token.issued` / `refresh_token.saved`. */
  export interface IssuedToken {
    jti: string;
    grantId?: string;
    clientId?: string;
  }

  export class Provider extends EventEmitter {
    constructor(issuer: string, configuration: Record<string, unknown>);
    readonly issuer: string;
    callback(): (request: IncomingMessage, response: ServerResponse) => void;
    use(middleware: (context: KoaContextWithOIDC, next: () => Promise<void>) => Promise<void>): this;
    interactionDetails(request: IncomingMessage, response: ServerResponse): Promise<Interaction>;
    interactionResult(
      request: IncomingMessage,
      response: ServerResponse,
      result: Record<string, unknown>,
      options?: { mergeWithLastSubmission?: boolean },
    ): Promise<string>;
    Grant: {
      new (properties: { accountId: string; clientId: string }): Grant;
      find(id: string): Promise<Grant | undefined>;
    };
  }

  export const errors: {
    InvalidTarget: new (description?: string) => Error;
  };

  export default Provider;
}

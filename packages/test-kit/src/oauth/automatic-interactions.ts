import type { KoaContextWithOIDC, Provider } from 'oidc-provider';

type Middleware = (context: KoaContextWithOIDC, next: () => Promise<void>) => Promise<void>;

/** Where oidc-provider sends the user agent for an interaction (its `interactions.url` option points here). */
export const interactionPath = (uid: string) => `/interaction/${uid}`;

const interactionRoute = /^\/interaction\/[^/]+$/;

/**
 * The fixture's user, with no UI: the interaction route oidc-provider redirects to logs the test user in (the one
 * `currentSubject` names when the flow reaches its login: `AuthorizationServer.signInAs` changes it) and
 * consents to every scope and resource the client asked for, then sends the user agent back to oidc-provider's
 * resume URL. That is the library's documented interaction API (`interactionDetails`, `interactionResult`, `Grant`),
 * so every check of the authorization endpoint (client, redirect URI, PKCE, resource, scope) still runs as it would
 * behind a login page.
 */
export function createAutomaticInteractions(provider: Provider, currentSubject: () => string): Middleware {
  return async (context, next) => {
    if (context.method !== 'GET' || !interactionRoute.test(context.path)) return next();
    try {
      const interaction = await provider.interactionDetails(context.req, context.res);
      const result = await resultFor(provider, interaction, currentSubject());
      const returnTo = await provider.interactionResult(context.req, context.res, result, {
        mergeWithLastSubmission: true,
      });
      context.status = 303;
      context.redirect(returnTo);
    } catch (error) {
      context.status = 400;
      context.body = `interaction failed: ${error instanceof Error ? error.message : String(error)}`;
    }
  };
}

async function resultFor(
  provider: Provider,
  interaction: Awaited<ReturnType<Provider['interactionDetails']>>,
  subject: string,
): Promise<Record<string, unknown>> {
  const { prompt } = interaction;
  if (prompt.name === 'login') return { login: { accountId: subject } };
  if (prompt.name !== 'consent') {
    return { error: 'access_denied', error_description: `the fixture has no answer to the ${prompt.name} prompt` };
  }
  const clientId = String(interaction.params.client_id);
  const accountId = interaction.session?.accountId ?? subject;
  const existing = interaction.grantId === undefined ? undefined : await provider.Grant.find(interaction.grantId);
  const grant = existing ?? new provider.Grant({ accountId, clientId });
  const { missingOIDCScope, missingOIDCClaims, missingResourceScopes } = prompt.details;
  if (missingOIDCScope) grant.addOIDCScope(missingOIDCScope.join(' '));
  if (missingOIDCClaims) grant.addOIDCClaims(missingOIDCClaims);
  for (const [resource, scopes] of Object.entries(missingResourceScopes ?? {})) {
    grant.addResourceScope(resource, scopes.join(' '));
  }
  return { consent: { grantId: await grant.save() } };
}

import type { KoaContextWithOIDC } from 'oidc-provider';

type Middleware = (context: KoaContextWithOIDC, next: () => Promise<void>) => Promise<void>;

/** `/auth/<uid>` (oidc-provider's resume route) and `/interaction/<uid>` (ours): the steps of one flow. */
const flowStep = /^\/(?:auth|interaction)\/([^/]+)$/;

const flowOf = (path: string) => flowStep.exec(path)?.[1];

/**
 * Keeps, for every authorization flow in progress, the cookies a browser would carry between its steps.
 *
 * oidc-provider ties the steps of an authorization together with cookies (`_interaction`, `_interaction_resume`,
 * `_session`): the redirect to the interaction sets them, the interaction and the resume read them. A test client
 * that follows the authorization URL with `fetch` keeps no cookies, so the flow would stop at its first step. This
 * middleware stands in for that browser: a step that arrives without any `Cookie` header gets the cookies the
 * previous step of the same flow (same interaction uid in the path) was given, and the cookies a step is given are
 * kept for the step its redirect points to. A request that brings its own cookies (a real browser) is left alone.
 * Everything else is oidc-provider's own flow, checks included.
 */
export function createFlowCookieJar(issuer: string): { middleware: Middleware; clear(): void } {
  const jars = new Map<string, Map<string, string>>();
  const middleware: Middleware = async (context, next) => {
    const browserless = context.req.headers.cookie === undefined;
    const flow = flowOf(context.path);
    const carried = browserless && flow !== undefined ? jars.get(flow) : undefined;
    if (carried && carried.size > 0) {
      context.req.headers.cookie = [...carried].map(([name, value]) => `${name}=${value}`).join('; ');
    }
    await next();
    if (!browserless) return;
    const location = context.response.get('location');
    const target = typeof location === 'string' && location !== '' ? new URL(location, issuer) : undefined;
    const nextFlow = target && target.origin === new URL(issuer).origin ? flowOf(target.pathname) : undefined;
    if (flow !== undefined && flow !== nextFlow) jars.delete(flow);
    if (nextFlow === undefined) return;
    const jar = new Map(carried);
    applySetCookies(jar, context.response.get('set-cookie'));
    jars.set(nextFlow, jar);
  };
  return { middleware, clear: () => jars.clear() };
}

/** Applies `Set-Cookie` headers to a jar: a value sets the cookie, an empty value or a past expiry removes it. */
function applySetCookies(jar: Map<string, string>, header: string | string[] | undefined): void {
  const lines = header === undefined ? [] : Array.isArray(header) ? header : [header];
  for (const line of lines) {
    const [pair = '', ...attributes] = line.split(';');
    const equals = pair.indexOf('=');
    if (equals <= 0) continue;
    const name = pair.slice(0, equals).trim();
    const value = pair.slice(equals + 1).trim();
    const expires = attributes.map((attribute) => attribute.trim()).find((attribute) => /^expires=/i.test(attribute));
    const expired = expires !== undefined && Date.parse(expires.slice('expires='.length)) <= Date.now();
    if (value === '' || expired) jar.delete(name);
    else jar.set(name, value);
  }
}

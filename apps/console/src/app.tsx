import { LocationProvider, lazy, Route, Router } from 'preact-iso';
import { useEffect, useMemo, useState } from 'preact/hooks';
import { ApiClient } from './api/api-client.js';
import { AppContext } from './app-context.js';
import { addressWithoutCode, codeFromHash, exchangeCode } from './auth/one-time-code.js';
import { forgetToken, readProject, readToken, saveToken } from './auth/session-token.js';
import { SignInPage } from './auth/sign-in-page.js';
import { Navigation } from './components/navigation.js';
import { ActivityPage } from './pages/activity-page.js';
import { ConfigPage } from './pages/config-page.js';
import { NotFoundPage } from './pages/not-found-page.js';
import { ServersPage } from './pages/servers-page.js';
import { ToolPage } from './pages/tool-page.js';
import { ToolsPage } from './pages/tools-page.js';
import { base } from './routes.js';

// uPlot is most of the bundle's weight and only Usage draws charts: it loads when that page is opened.
const UsagePage = lazy(() => import('./pages/usage-page.js').then((module) => module.UsagePage));

type Session =
  | { state: 'exchanging' }
  | { state: 'signed-out'; message?: string }
  | { state: 'signed-in'; token: string; project?: string };

function initialSession(): Session {
  if (codeFromHash(location.hash)) return { state: 'exchanging' };
  const token = readToken();
  const project = readProject();
  if (!token) return { state: 'signed-out' };
  return project ? { state: 'signed-in', token, project } : { state: 'signed-in', token };
}

export function App() {
  const [session, setSession] = useState<Session>(initialSession);

  // `search-mcp ui` opens /ui/#code=…: trade the code once, then drop it from the address bar (docs/console.md).
  useEffect(() => {
    const code = codeFromHash(location.hash);
    if (!code) return;
    history.replaceState(history.state, '', addressWithoutCode(location));
    exchangeCode('', code)
      .then((token) => {
        saveToken(token);
        setSession({ state: 'signed-in', token });
      })
      .catch((error: Error) => setSession({ state: 'signed-out', message: error.message }));
  }, []);

  const signedInToken = session.state === 'signed-in' ? session.token : undefined;
  const project = session.state === 'signed-in' ? session.project : undefined;
  const context = useMemo(() => {
    if (!signedInToken) return undefined;
    const signOut = (message?: string) => {
      forgetToken();
      setSession(message ? { state: 'signed-out', message } : { state: 'signed-out' });
    };
    const client = new ApiClient({
      baseUrl: '',
      token: () => signedInToken,
      project: () => project,
      onUnauthorized: (error) => signOut(error.message),
    });
    return { client, signOut };
  }, [signedInToken, project]);

  if (session.state === 'exchanging') {
    return (
      <main class="container">
        <h1 aria-busy="true">Signing in…</h1>
      </main>
    );
  }
  if (!context) {
    return (
      <SignInPage
        {...(session.state === 'signed-out' && session.message ? { message: session.message } : {})}
        onSignedIn={(token, chosenProject) => {
          saveToken(token, chosenProject);
          setSession(
            chosenProject ? { state: 'signed-in', token, project: chosenProject } : { state: 'signed-in', token },
          );
        }}
      />
    );
  }
  return (
    <AppContext.Provider value={context}>
      <LocationProvider scope={base}>
        <header class="container">
          <Navigation onSignOut={() => context.signOut()} />
        </header>
        <main class="container">
          <Router>
            <Route path={`${base}/`} component={ServersPage} />
            <Route path={base} component={ServersPage} />
            <Route path={`${base}/tools`} component={ToolsPage} />
            <Route path={`${base}/tools/:toolKey`} component={ToolPage} />
            <Route path={`${base}/activity`} component={ActivityPage} />
            <Route path={`${base}/usage`} component={UsagePage} />
            <Route path={`${base}/config`} component={ConfigPage} />
            <Route default component={NotFoundPage} />
          </Router>
        </main>
      </LocationProvider>
    </AppContext.Provider>
  );
}

import { useEffect, useState } from 'preact/hooks';
import { ApiClient } from '../api/api-client.js';
import { ApiError } from '../api/api-error.js';

/**
 * The token form (docs/console.md, "Signing in"): a static token, the generated one, or an OAuth access token, and
 * for a token limited to projects the project to work in. The token is checked with `GET /v1/servers` before it is
 * kept, so a wrong one is told at once; a 403 there still signs in (the token is good, the pages say what it may not
 * see).
 */
export function SignInPage({
  message,
  onSignedIn,
}: {
  message?: string;
  onSignedIn: (token: string, project: string | undefined) => void;
}) {
  const [token, setToken] = useState('');
  const [project, setProject] = useState('');
  const [error, setError] = useState<string | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const [issuer, setIssuer] = useState<string | undefined>(undefined);

  // `GET /ui/settings.json` (public, docs/console.md) says whether OAuth access tokens are accepted, and whose.
  useEffect(() => {
    const controller = new AbortController();
    new ApiClient({ baseUrl: '', token: () => undefined })
      .get<{ auth?: { oauth?: { issuer?: string } } }>('/ui/settings.json', controller.signal)
      .then((settings) => setIssuer(settings?.auth?.oauth?.issuer))
      .catch(() => {
        // Without the settings the form works the same; only the hint is missing.
      });
    return () => controller.abort();
  }, []);

  async function submit(event: Event) {
    event.preventDefault();
    const candidate = token.trim();
    if (!candidate) return setError('Enter a token');
    const chosenProject = project.trim() || undefined;
    setBusy(true);
    try {
      await new ApiClient({ baseUrl: '', token: () => candidate, project: () => chosenProject }).get('/v1/servers');
      onSignedIn(candidate, chosenProject);
    } catch (failure) {
      if (failure instanceof ApiError && failure.isForbidden) onSignedIn(candidate, chosenProject);
      else setError(failure instanceof ApiError ? failure.message : String(failure));
    } finally {
      setBusy(false);
    }
  }

  const shown = error ?? message;
  return (
    <main class="container sign-in">
      <article>
        <h1>Sign in to Search MCP</h1>
        <p>
          Use a token of <code>auth.tokens</code>, the token search-mcp-http generated at start, or an OAuth access
          token. It is kept in this tab only.
        </p>
        {issuer && (
          <p>
            OAuth access tokens are accepted from <code>{issuer}</code>.
          </p>
        )}
        {shown && (
          <p class="notice notice-error" role="alert">
            {shown}
          </p>
        )}
        <form onSubmit={submit}>
          <label for="sign-in-token">Token</label>
          <input
            id="sign-in-token"
            type="password"
            autocomplete="current-password"
            value={token}
            onInput={(event) => setToken(event.currentTarget.value)}
            aria-invalid={error ? true : undefined}
            required
          />
          <label for="sign-in-project">
            Project <small class="muted">(only for a token limited to projects)</small>
          </label>
          <input
            id="sign-in-project"
            type="text"
            autocomplete="off"
            value={project}
            onInput={(event) => setProject(event.currentTarget.value)}
          />
          <button type="submit" aria-busy={busy} disabled={busy}>
            Sign in
          </button>
        </form>
      </article>
    </main>
  );
}

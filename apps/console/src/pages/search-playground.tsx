import { useState } from 'preact/hooks';
import type { ApiError } from '../api/api-error.js';
import type { SearchAnswer } from '../api/api-types.js';
import { useApp } from '../app-context.js';
import { ErrorNotice } from '../components/error-notice.js';
import { toolHref } from '../routes.js';

/**
 * The search playground (issue 22, "Tools"): a query through `POST /v1/tools/search`, each hit's rank, relevance and
 * matched terms, the ranker used, and the "no good match" notice when the match is weak or none.
 */
export function SearchPlayground() {
  const { client } = useApp();
  const [query, setQuery] = useState('');
  const [answer, setAnswer] = useState<SearchAnswer | undefined>(undefined);
  const [error, setError] = useState<ApiError | undefined>(undefined);
  const [busy, setBusy] = useState(false);

  async function search(event: Event) {
    event.preventDefault();
    if (!query.trim()) return;
    setBusy(true);
    try {
      setAnswer(await client.post<SearchAnswer>('/v1/tools/search', { query: query.trim(), limit: 10 }));
      setError(undefined);
    } catch (failure) {
      setError(failure as ApiError);
      setAnswer(undefined);
    } finally {
      setBusy(false);
    }
  }

  return (
    <section aria-labelledby="playground-heading">
      <h2 id="playground-heading">Search playground</h2>
      <form aria-label="Search the tools" onSubmit={search}>
        {/* biome-ignore lint/a11y/noRedundantRoles: Pico lays out an input and its button side by side by this role */}
        <fieldset role="group">
          <input
            type="search"
            aria-label="Search query"
            placeholder="What should the tool do? e.g. echo a message"
            value={query}
            onInput={(event) => setQuery(event.currentTarget.value)}
          />
          <button type="submit" aria-busy={busy} disabled={busy}>
            Search
          </button>
        </fieldset>
      </form>
      <ErrorNotice error={error} what="The search" />
      {answer && <SearchResults answer={answer} />}
    </section>
  );
}

function SearchResults({ answer }: { answer: SearchAnswer }) {
  return (
    <div aria-live="polite">
      <p>
        {answer.total} {answer.total === 1 ? 'tool' : 'tools'} found · match <strong>{answer.match}</strong>
        {answer.strategy && (
          <>
            {' '}
            · strategy <code>{answer.strategy}</code>
          </>
        )}
        {answer.fallbackReason && <small class="muted"> ({answer.fallbackReason})</small>}
      </p>
      {answer.match !== 'good' && (
        <p class="notice notice-warn" role="status">
          {answer.notice ?? (answer.match === 'none' ? 'No tool matches this well.' : 'Only a partial match.')}
        </p>
      )}
      {answer.results.length > 0 && (
        <div class="overflow-auto">
          <table>
            <thead>
              <tr>
                <th scope="col">Rank</th>
                <th scope="col">Tool</th>
                <th scope="col">Relevance</th>
                <th scope="col">Matched</th>
              </tr>
            </thead>
            <tbody>
              {answer.results.map((hit, index) => (
                <tr key={hit.toolKey}>
                  <td>{index + 1}</td>
                  <th scope="row">
                    <a href={toolHref(hit.toolKey)}>{hit.toolKey}</a>
                    {hit.description && (
                      <>
                        <br />
                        <small class="description">{hit.description}</small>
                      </>
                    )}
                  </th>
                  <td>
                    <meter
                      min={0}
                      max={1}
                      value={hit.relevance}
                      aria-label={`Relevance of ${hit.toolKey}`}
                      title={hit.relevance.toFixed(2)}
                    />{' '}
                    {hit.relevance.toFixed(2)}
                  </td>
                  <td>{hit.explanation ?? '–'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}

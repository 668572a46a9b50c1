import type { ConfigAnswer } from '../api/api-types.js';
import { ErrorNotice } from '../components/error-notice.js';
import { useApi } from '../use-api.js';

/** The Config page (issue 22, "Pages"): the resolved config, secrets masked by the server, and its warnings. */
export function ConfigPage() {
  const config = useApi<ConfigAnswer>('/v1/config');
  const warnings = config.data?.warnings ?? [];
  return (
    <section>
      <hgroup>
        <h1>Config</h1>
        <p>Read-only; the server masks every secret before it sends the config.</p>
      </hgroup>
      <ErrorNotice error={config.error} what="Reading the config" />
      {config.loading && !config.data && <p aria-busy="true">Loading the config…</p>}
      {config.data && (
        <>
          {config.data.path && (
            <p>
              File: <code>{config.data.path}</code>
            </p>
          )}
          <h2>Warnings</h2>
          {warnings.length === 0 ? (
            <p>None.</p>
          ) : (
            <ul aria-label="Config warnings">
              {warnings.map((warning, index) => (
                <li key={index}>{warningText(warning)}</li>
              ))}
            </ul>
          )}
          <h2>Resolved config</h2>
          <pre class="json">{JSON.stringify(config.data.config, null, 2)}</pre>
        </>
      )}
    </section>
  );
}

function warningText(warning: string | { message?: string; path?: string }): string {
  if (typeof warning === 'string') return warning;
  return [warning.path, warning.message].filter(Boolean).join(': ') || JSON.stringify(warning);
}

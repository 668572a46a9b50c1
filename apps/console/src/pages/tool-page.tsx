import { useRoute } from 'preact-iso';
import type { ToolDetail } from '../api/api-types.js';
import { ErrorNotice } from '../components/error-notice.js';
import { base } from '../routes.js';
import { TryCall } from '../schema-form/try-call.js';
import { useApi } from '../use-api.js';

/** A tool's page (issue 22, "Tools"): its description and input schema, and a form to try a call. */
export function ToolPage() {
  const { params } = useRoute();
  const toolKey = params['toolKey'] ?? '';
  const tool = useApi<ToolDetail>(`/v1/tools/${encodeURIComponent(toolKey)}`);

  return (
    <section>
      <nav aria-label="Breadcrumb">
        <ul>
          <li>
            <a href={`${base}/tools`}>Tools</a>
          </li>
          <li>{toolKey}</li>
        </ul>
      </nav>
      <h1>{tool.data?.title ?? tool.data?.name ?? toolKey}</h1>
      <ErrorNotice error={tool.error} what="Loading the tool" />
      {tool.loading && !tool.data && <p aria-busy="true">Loading the tool…</p>}
      {tool.data && (
        <>
          <p>
            <code>{tool.data.toolKey}</code> on server <strong>{tool.data.serverName}</strong>
          </p>
          <p class="description">{tool.data.description || 'No description.'}</p>
          <details>
            <summary>Input schema</summary>
            <pre class="json">{JSON.stringify(tool.data.inputSchema, null, 2)}</pre>
          </details>
          <TryCall key={tool.data.toolKey} tool={tool.data} />
        </>
      )}
    </section>
  );
}

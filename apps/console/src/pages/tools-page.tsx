import { useState } from 'preact/hooks';
import type { ServerStatus, ToolList } from '../api/api-types.js';
import { ErrorNotice } from '../components/error-notice.js';
import { toolHref } from '../routes.js';
import { useApi } from '../use-api.js';
import { SearchPlayground } from './search-playground.js';

/** The Tools page (issue 22, "Pages"): the search playground, and the tools of one server or all. */
export function ToolsPage() {
  const [server, setServer] = useState('');
  const servers = useApi<{ servers: ServerStatus[] }>('/v1/servers');
  const query = server ? `?server=${encodeURIComponent(server)}&limit=100` : '?limit=100';
  const tools = useApi<ToolList>(`/v1/tools${query}`);

  return (
    <section>
      <h1>Tools</h1>
      <SearchPlayground />
      <h2>Browse</h2>
      <label for="tools-server">Server</label>
      <select id="tools-server" value={server} onChange={(event) => setServer(event.currentTarget.value)}>
        <option value="">All servers</option>
        {servers.data?.servers.map((entry) => (
          <option key={entry.id} value={entry.id}>
            {entry.id} ({entry.toolCount})
          </option>
        ))}
      </select>
      <ErrorNotice error={tools.error} what="Listing the tools" />
      {tools.loading && !tools.data && <p aria-busy="true">Loading the tools…</p>}
      {tools.data && tools.data.tools.length === 0 && <p>No tools.</p>}
      {tools.data && tools.data.tools.length > 0 && (
        <>
          <div class="overflow-auto">
            <table class="striped">
              <thead>
                <tr>
                  <th scope="col">Tool</th>
                  <th scope="col">Server</th>
                  <th scope="col">Description</th>
                </tr>
              </thead>
              <tbody>
                {tools.data.tools.map((tool) => (
                  <tr key={tool.toolKey}>
                    <th scope="row">
                      <a href={toolHref(tool.toolKey)}>{tool.name}</a>
                    </th>
                    <td>{tool.serverName}</td>
                    <td class="description">{tool.description}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {tools.data.pagination.total > tools.data.tools.length && (
            <p>
              Showing {tools.data.tools.length} of {tools.data.pagination.total}: choose a server or search to narrow.
            </p>
          )}
        </>
      )}
    </section>
  );
}

import { useState } from 'preact/hooks';
import type { ApiError } from '../api/api-error.js';
import type { AuthorizeAnswer, ConsoleEvent, ServerStatus } from '../api/api-types.js';
import { useApp } from '../app-context.js';
import { safeAuthorizationUrl } from '../auth/safe-authorization-url.js';
import { ErrorNotice } from '../components/error-notice.js';
import { StateBadge } from '../components/state-badge.js';
import { LiveIndicator, useLiveEvents } from '../live/use-live-events.js';
import { useApi } from '../use-api.js';
import { QuarantineList } from './quarantine-list.js';
import { ServerEvents } from './server-events.js';

type Action = 'restart' | 'enable' | 'disable' | 'authorize';

/**
 * The Servers page (issue 22, "Pages"): each backend's state, protocol, tools, restarts and last error, the admin
 * actions, and the recent reload and state events, kept current from the activity stream.
 */
export function ServersPage() {
  const servers = useApi<{ servers: ServerStatus[] }>('/v1/servers');
  const events = useApi<{ events: ConsoleEvent[] }>('/v1/events?limit=50');
  const live = useLiveEvents((name, data) => {
    if (name === 'server') {
      const status = data as ServerStatus;
      // The data of the last render: this handler is renewed on every render (useLiveEvents keeps the latest).
      const previous = servers.data?.servers.find((server) => server.id === status.id)?.state;
      servers.setData((current) => {
        if (!current) return current;
        const known = current.servers.some((server) => server.id === status.id);
        return {
          servers: known
            ? current.servers.map((server) => (server.id === status.id ? status : server))
            : [...current.servers, status],
        };
      });
      if (previous !== status.state) {
        const event: ConsoleEvent = {
          at: new Date().toISOString(),
          kind: 'server-state',
          serverId: status.id,
          to: status.state,
        };
        if (previous) event.from = previous;
        events.setData((current) => (current ? { events: [...current.events, event].slice(-200) } : current));
      }
    } else if (name === 'reload') {
      events.setData((current) =>
        current ? { events: [...current.events, data as ConsoleEvent].slice(-200) } : current,
      );
      servers.reload();
    }
  });

  return (
    <section>
      <hgroup>
        <h1>Servers</h1>
        <p>
          The backend MCP servers of this Search MCP. <LiveIndicator status={live} />
        </p>
      </hgroup>
      <ErrorNotice error={servers.error} what="Listing the servers" />
      {servers.loading && !servers.data && <p aria-busy="true">Loading the servers…</p>}
      {servers.data && servers.data.servers.length === 0 && <p>No servers are configured.</p>}
      {servers.data && servers.data.servers.length > 0 && (
        <div class="overflow-auto">
          <table class="striped">
            <thead>
              <tr>
                <th scope="col">Server</th>
                <th scope="col">State</th>
                <th scope="col">Protocol</th>
                <th scope="col">Tools</th>
                <th scope="col">Restarts</th>
                <th scope="col">Last error</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {servers.data.servers.map((server) => (
                <ServerRow key={server.id} server={server} onChanged={servers.reload} />
              ))}
            </tbody>
          </table>
        </div>
      )}
      <QuarantineList onApproved={servers.reload} />
      <h2>Recent events</h2>
      <ServerEvents events={events.data?.events} error={events.error} />
    </section>
  );
}

function ServerRow({ server, onChanged }: { server: ServerStatus; onChanged: () => void }) {
  const { client } = useApp();
  const [busy, setBusy] = useState<Action | undefined>(undefined);
  const [error, setError] = useState<ApiError | undefined>(undefined);
  const [note, setNote] = useState<string | undefined>(undefined);

  async function run(action: Action) {
    setBusy(action);
    setError(undefined);
    setNote(undefined);
    const id = encodeURIComponent(server.id);
    try {
      if (action === 'authorize') {
        const answer = await client.post<AuthorizeAnswer>(`/v1/servers/${id}/authorize`);
        if (answer.authorizationUrl) {
          const url = safeAuthorizationUrl(answer.authorizationUrl);
          if (url) {
            window.open(url, '_blank', 'noopener,noreferrer');
            setNote('The authorization page opened in a new tab.');
          } else setNote('The authorization URL the server gave is not http(s); it was not opened.');
        } else setNote('Authorized; the server is connecting.');
      } else {
        await client.post<ServerStatus>(`/v1/servers/${id}/${action}`);
      }
      onChanged();
    } catch (failure) {
      setError(failure as ApiError);
    } finally {
      setBusy(undefined);
    }
  }

  const protocol = [server.protocolVersion, server.protocolEra].filter(Boolean).join(' · ');
  const stopped = server.state === 'stopped' || server.state === 'disabled';
  const oauth = server.state === 'needs-auth' || (server.oauth !== undefined && server.oauth.state !== 'none');
  return (
    <tr>
      <th scope="row">
        {server.id}
        {server.serverInfo && (
          <small class="muted">
            <br />
            {server.serverInfo.name} {server.serverInfo.version}
          </small>
        )}
      </th>
      <td>
        <StateBadge state={server.state} />
      </td>
      <td>{protocol || '–'}</td>
      <td>{server.toolCount}</td>
      <td>{server.restarts}</td>
      <td>{server.lastError ? <pre class="last-error">{server.lastError}</pre> : '–'}</td>
      <td>
        <div class="actions">
          <button
            type="button"
            class="outline"
            aria-label={`Restart ${server.id}`}
            aria-busy={busy === 'restart'}
            disabled={busy !== undefined}
            onClick={() => run('restart')}
          >
            Restart
          </button>
          {stopped ? (
            <button
              type="button"
              class="outline"
              aria-label={`Enable ${server.id}`}
              aria-busy={busy === 'enable'}
              disabled={busy !== undefined}
              onClick={() => run('enable')}
            >
              Enable
            </button>
          ) : (
            <button
              type="button"
              class="outline secondary"
              aria-label={`Disable ${server.id}`}
              aria-busy={busy === 'disable'}
              disabled={busy !== undefined}
              onClick={() => run('disable')}
            >
              Disable
            </button>
          )}
          {oauth && (
            <button
              type="button"
              class="outline"
              aria-label={`Authorize ${server.id}`}
              aria-busy={busy === 'authorize'}
              disabled={busy !== undefined}
              onClick={() => run('authorize')}
            >
              Authorize
            </button>
          )}
        </div>
        <ErrorNotice error={error} what={busy ?? 'The action'} />
        {note && <small role="status">{note}</small>}
      </td>
    </tr>
  );
}

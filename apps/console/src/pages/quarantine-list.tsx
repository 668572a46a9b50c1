import { useState } from 'preact/hooks';
import type { ApiError } from '../api/api-error.js';
import { useApp } from '../app-context.js';
import { ErrorNotice } from '../components/error-notice.js';
import { useApi } from '../use-api.js';

/** A tool held back until approved, as `GET /v1/quarantine` lists it (docs/trust.md, "Pinning and quarantine"). */
interface QuarantinedTool {
  toolKey: string;
  serverId: string;
  toolName: string;
  reason: 'changed' | 'new-server' | 'suspicious';
  diff: string[];
  /** What the approval sends back, so only the definition shown here is pinned. */
  hash: string;
  since: string;
}

/**
 * The Servers page's "Quarantined" list: each held tool with its change, old → new, and an Approve button (admin).
 * Shown only when something waits; a token that is no admin's sees nothing of it.
 */
export function QuarantineList({ onApproved }: { onApproved: () => void }) {
  const { client } = useApp();
  const held = useApi<{ tools: QuarantinedTool[] }>('/v1/quarantine');
  const [busy, setBusy] = useState<string | undefined>(undefined);
  const [error, setError] = useState<ApiError | undefined>(undefined);

  async function approve(tool: QuarantinedTool) {
    setBusy(tool.toolKey);
    setError(undefined);
    try {
      await client.post(`/v1/servers/${encodeURIComponent(tool.serverId)}/approve`, {
        tool: tool.toolName,
        hashes: { [tool.toolName]: tool.hash },
      });
      held.reload();
      onApproved();
    } catch (failure) {
      setError(failure as ApiError);
    } finally {
      setBusy(undefined);
    }
  }

  if (held.error && !held.error.isForbidden && !held.error.isUnauthorized) {
    return <ErrorNotice error={held.error} what="Listing the quarantined tools" />;
  }
  const tools = held.data?.tools ?? [];
  if (tools.length === 0) return null;
  return (
    <>
      <h2>Quarantined</h2>
      <p>Hidden from search and lists, calls refused, until approved: their definition changed since it was pinned.</p>
      <ErrorNotice error={error} what="Approving" />
      <div class="overflow-auto">
        <table class="striped">
          <thead>
            <tr>
              <th scope="col">Tool</th>
              <th scope="col">Change</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {tools.map((tool) => (
              <tr key={tool.toolKey}>
                <th scope="row">
                  {tool.toolKey}
                  <small class="muted">
                    <br />
                    {tool.reason} since {tool.since.slice(0, 16).replace('T', ' ')} UTC
                  </small>
                </th>
                <td>
                  <pre class="last-error">{tool.diff.join('\n')}</pre>
                </td>
                <td>
                  <button
                    type="button"
                    class="outline"
                    aria-label={`Approve ${tool.toolKey}`}
                    aria-busy={busy === tool.toolKey}
                    disabled={busy !== undefined}
                    onClick={() => approve(tool)}
                  >
                    Approve
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

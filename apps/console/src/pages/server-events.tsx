import type { ApiError } from '../api/api-error.js';
import type { ConsoleEvent } from '../api/api-types.js';
import { ErrorNotice } from '../components/error-notice.js';
import { formatTime } from '../format/format-duration.js';

/** The recent hot reloads and server state changes, newest first (`GET /v1/events`, then the stream). */
export function ServerEvents({ events, error }: { events: ConsoleEvent[] | undefined; error: ApiError | undefined }) {
  if (error) return <ErrorNotice error={error} what="The event list" />;
  if (!events) return <p aria-busy="true">Loading the events…</p>;
  if (events.length === 0) return <p>No reloads or state changes since the start.</p>;
  return (
    <ul class="events" aria-label="Recent events">
      {[...events].reverse().map((event, index) => (
        <li key={`${event.at}-${index}`}>
          <time dateTime={event.at}>{formatTime(event.at)}</time> {describe(event)}
        </li>
      ))}
    </ul>
  );
}

export function describe(event: ConsoleEvent): string {
  if (event.kind === 'server-state') {
    return `${event.serverId ?? 'a server'}: ${event.from ? `${event.from} → ` : ''}${event.to ?? '?'}`;
  }
  if (event.kind === 'reload-failed') return `Config reload failed: ${event.error ?? 'no reason given'}`;
  const parts: string[] = [];
  const servers = event.servers;
  if (servers?.added.length) parts.push(`added ${servers.added.join(', ')}`);
  if (servers?.removed.length) parts.push(`removed ${servers.removed.join(', ')}`);
  if (servers?.changed.length) parts.push(`changed ${servers.changed.join(', ')}`);
  if (event.notApplied?.length) parts.push(`needs a restart for ${event.notApplied.join(', ')}`);
  return `Config reloaded${parts.length ? `: ${parts.join('; ')}` : ''}`;
}

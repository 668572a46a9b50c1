import { useEffect, useRef, useState } from 'preact/hooks';
import type { ApiError } from '../api/api-error.js';
import { useApp } from '../app-context.js';
import { followActivityStream } from './activity-stream.js';

export interface LiveStatus {
  connected: boolean;
  error?: ApiError;
}

/** Follows the activity stream while the calling page is shown; `onEvent` hears each `call`/`server`/`reload`. */
export function useLiveEvents(onEvent: (name: string, data: unknown) => void): LiveStatus {
  const { client } = useApp();
  const [status, setStatus] = useState<LiveStatus>({ connected: false });
  const handler = useRef(onEvent);
  handler.current = onEvent;
  useEffect(() => {
    const controller = new AbortController();
    void followActivityStream(
      client,
      { onEvent: (name, data) => handler.current(name, data), onStatus: setStatus },
      controller.signal,
    );
    return () => controller.abort();
  }, [client]);
  return status;
}

/** A line saying whether the page is live, for the pages that follow the stream. */
export function LiveIndicator({ status }: { status: LiveStatus }) {
  if (status.error?.isForbidden) return <small class="live live-off">Live updates need an admin.</small>;
  if (status.connected) return <small class="live live-on">Live</small>;
  return (
    <small class="live live-off">
      Not live{status.error ? `: ${status.error.message}` : ''}
      {status.error && !status.error.isUnauthorized ? ' (retrying)' : ''}
    </small>
  );
}

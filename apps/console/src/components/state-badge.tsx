import type { ServerState } from '../api/api-types.js';

const tone: Record<string, string> = {
  running: 'good',
  starting: 'busy',
  'needs-auth': 'warn',
  stopped: 'idle',
  disabled: 'idle',
  crashed: 'bad',
  failed: 'bad',
};

/** A server's state as a coloured badge that also says the state in words (colour is never the only signal). */
export function StateBadge({ state }: { state: ServerState | string }) {
  return <span class={`badge badge-${tone[state] ?? 'idle'}`}>{state}</span>;
}

import { useEffect, useState } from 'preact/hooks';
import type { ActivityRecord } from '../api/api-types.js';
import { ErrorNotice } from '../components/error-notice.js';
import { formatDuration, formatTime } from '../format/format-duration.js';
import { appendRecords, filterRecords, type OutcomeFilter } from '../live/activity-buffer.js';
import { LiveIndicator, useLiveEvents } from '../live/use-live-events.js';
import { useApi } from '../use-api.js';

/**
 * The Activity page (issue 22, "Pages"): the recent calls from `GET /v1/activity`, then each new one from the stream's
 * `call` events. Paused, new calls wait in a buffer and appear on resume.
 */
export function ActivityPage() {
  const initial = useApi<{ records: ActivityRecord[] }>('/v1/activity?limit=500');
  const [records, setRecords] = useState<ActivityRecord[]>([]);
  const [buffered, setBuffered] = useState<ActivityRecord[]>([]);
  const [paused, setPaused] = useState(false);
  const [text, setText] = useState('');
  const [outcome, setOutcome] = useState<OutcomeFilter>('all');

  useEffect(() => {
    // Calls heard on the stream before the list arrived are newer than it: keep them after it, once each.
    if (initial.data) {
      const loaded = initial.data.records;
      const seen = new Set(loaded.map((entry) => `${entry.requestId}|${entry.ts}|${entry.toolKey ?? ''}`));
      setRecords((early) =>
        appendRecords(
          loaded,
          early.filter((entry) => !seen.has(`${entry.requestId}|${entry.ts}|${entry.toolKey ?? ''}`)),
        ),
      );
    }
  }, [initial.data]);

  const live = useLiveEvents((name, data) => {
    if (name !== 'call') return;
    const record = data as ActivityRecord;
    if (paused) setBuffered((waiting) => appendRecords(waiting, [record]));
    else setRecords((shown) => appendRecords(shown, [record]));
  });

  function togglePause() {
    if (paused) {
      setRecords((shown) => appendRecords(shown, buffered));
      setBuffered([]);
    }
    setPaused(!paused);
  }

  const shown = filterRecords(records, text, outcome).slice().reverse();
  return (
    <section>
      <hgroup>
        <h1>Activity</h1>
        <p>
          Calls and searches as they happen, newest first. <LiveIndicator status={live} />
        </p>
      </hgroup>
      <ErrorNotice error={initial.error} what="The activity list" />
      <form class="filters" onSubmit={(event) => event.preventDefault()}>
        <fieldset class="grid">
          <label>
            Filter by tool, server or caller
            <input type="search" value={text} onInput={(event) => setText(event.currentTarget.value)} />
          </label>
          <label>
            Outcome
            <select value={outcome} onChange={(event) => setOutcome(event.currentTarget.value as OutcomeFilter)}>
              <option value="all">All</option>
              <option value="ok">ok</option>
              <option value="failed">Failed (error or tool_error)</option>
              <option value="tool_error">tool_error</option>
              <option value="error">error</option>
              <option value="input_required">input_required</option>
              <option value="cancelled">cancelled</option>
            </select>
          </label>
          <div class="filter-button">
            <button type="button" class="secondary" aria-pressed={paused} onClick={togglePause}>
              {paused ? `Resume (${buffered.length} waiting)` : 'Pause'}
            </button>
          </div>
        </fieldset>
      </form>
      {initial.loading && !initial.data && <p aria-busy="true">Loading the activity…</p>}
      {initial.data && shown.length === 0 && <p>No calls{records.length > 0 ? ' match the filter' : ' yet'}.</p>}
      {shown.length > 0 && (
        <div class="overflow-auto">
          <table class="striped" aria-label="Calls">
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col">Caller</th>
                <th scope="col">Tool</th>
                <th scope="col">Duration</th>
                <th scope="col">Outcome</th>
              </tr>
            </thead>
            <tbody>
              {shown.map((record, index) => (
                <tr key={`${record.requestId}-${record.ts}-${index}`}>
                  <td>
                    <time dateTime={record.ts}>{formatTime(record.ts)}</time>
                  </td>
                  <td>{record.caller}</td>
                  <td>{what(record)}</td>
                  <td>{formatDuration(record.durationMs)}</td>
                  <td>
                    <span class={`badge badge-${outcomeTone(record.outcome)}`}>{record.outcome}</span>
                    {record.errorCode && <small class="muted"> {record.errorCode}</small>}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

function what(record: ActivityRecord): string {
  if (record.toolKey) return record.toolKey;
  if (record.queries?.length) return `search: ${record.queries.join(' / ')}`;
  return record.event;
}

function outcomeTone(outcome: ActivityRecord['outcome']): string {
  if (outcome === 'ok') return 'good';
  if (outcome === 'error' || outcome === 'tool_error') return 'bad';
  return 'warn';
}

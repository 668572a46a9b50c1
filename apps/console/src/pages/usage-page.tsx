import { useMemo, useState } from 'preact/hooks';
import type { UsageFigures, UsageReport, UsageWindow } from '../api/api-types.js';
import { ErrorNotice } from '../components/error-notice.js';
import { type Column, SortableTable } from '../components/sortable-table.js';
import { formatDuration, formatPercent, formatTime } from '../format/format-duration.js';
import { toolHref } from '../routes.js';
import { callColumns, durationColumns, errorRate } from '../usage/chart-data.js';
import { type ChartLine, UsageChart } from '../usage/usage-chart.js';
import { useApi } from '../use-api.js';

const windows: Array<{ value: UsageWindow; label: string }> = [
  { value: '1h', label: 'Last hour' },
  { value: '24h', label: 'Last 24 hours' },
  { value: '7d', label: 'Last 7 days' },
];

const count = (value: number) => String(Math.round(value));
const callLines: ChartLine[] = [
  { label: 'Calls', colour: '#0172ad', fill: true, format: count },
  { label: 'Errors', colour: '#d93526', format: count },
];
const durationLines: ChartLine[] = [
  { label: 'p50', colour: '#2a7f3f', format: formatDuration },
  { label: 'p95', colour: '#a65e00', format: formatDuration },
];

function figureColumns<Row extends UsageFigures>(): Array<Column<Row>> {
  return [
    { key: 'calls', label: 'Calls', value: (row) => row.calls, numeric: true },
    { key: 'errors', label: 'Errors', value: (row) => row.errors, numeric: true },
    {
      key: 'rate',
      label: 'Error rate',
      value: (row) => errorRate(row),
      render: (row) => formatPercent(errorRate(row)),
      numeric: true,
    },
    { key: 'p50', label: 'p50', value: (row) => row.p50Ms, render: (row) => formatDuration(row.p50Ms), numeric: true },
    { key: 'p95', label: 'p95', value: (row) => row.p95Ms, render: (row) => formatDuration(row.p95Ms), numeric: true },
  ];
}

type ServerRow = UsageReport['servers'][number];
type ToolRow = UsageReport['tools'][number];

const serverColumns: Array<Column<ServerRow>> = [
  { key: 'server', label: 'Server', value: (row) => row.serverId },
  ...figureColumns<ServerRow>(),
];
const toolColumns: Array<Column<ToolRow>> = [
  {
    key: 'tool',
    label: 'Tool',
    value: (row) => row.toolKey,
    render: (row) => <a href={toolHref(row.toolKey)}>{row.toolKey}</a>,
  },
  ...figureColumns<ToolRow>(),
  {
    key: 'last',
    label: 'Last call',
    value: (row) => row.lastCallAt,
    render: (row) => (row.lastCallAt ? formatTime(row.lastCallAt) : '–'),
  },
];

/** The Usage page (issue 22, "Pages"): calls, errors and durations over 1 h / 24 h / 7 d, as charts and tables. */
export function UsagePage() {
  const [period, setPeriod] = useState<UsageWindow>('24h');
  const stats = useApi<UsageReport>(`/v1/stats?window=${period}`);
  const report = stats.data;
  const calls = useMemo(() => (report ? callColumns(report) : undefined), [report]);
  const durations = useMemo(() => (report ? durationColumns(report) : undefined), [report]);

  return (
    <section>
      <h1>Usage</h1>
      <label for="usage-window">Window</label>
      <select
        id="usage-window"
        value={period}
        onChange={(event) => setPeriod(event.currentTarget.value as UsageWindow)}
      >
        {windows.map((entry) => (
          <option key={entry.value} value={entry.value}>
            {entry.label}
          </option>
        ))}
      </select>
      <ErrorNotice error={stats.error} what="The usage figures" />
      {stats.loading && !report && <p aria-busy="true">Loading the figures…</p>}
      {report && (
        <>
          <p>
            {report.totals.calls} calls, {report.totals.errors} errors ({formatPercent(errorRate(report.totals))}), p50{' '}
            {formatDuration(report.totals.p50Ms)}, p95 {formatDuration(report.totals.p95Ms)} · {report.searches.count}{' '}
            searches, {report.searches.noMatch} without a good match.
            {!report.persisted && ' These figures start again when the app restarts (no audit.file is configured).'}
          </p>
          <div class="grid">
            {calls && <UsageChart title="Calls and errors" columns={calls} lines={callLines} />}
            {durations && <UsageChart title="Duration (p50, p95)" columns={durations} lines={durationLines} />}
          </div>
          <h2>Per server</h2>
          {report.servers.length === 0 ? (
            <p>No calls in this window.</p>
          ) : (
            <SortableTable
              label="Usage per server"
              columns={serverColumns}
              rows={report.servers}
              rowKey={(row) => row.serverId}
              initialSort="calls"
            />
          )}
          <h2>Per tool</h2>
          {report.tools.length === 0 ? (
            <p>No calls in this window.</p>
          ) : (
            <SortableTable
              label="Usage per tool"
              columns={toolColumns}
              rows={report.tools}
              rowKey={(row) => row.toolKey}
              initialSort="calls"
            />
          )}
        </>
      )}
    </section>
  );
}

import { type ComponentChildren, h } from 'preact';
import { useState } from 'preact/hooks';

export interface Column<Row> {
  key: string;
  label: string;
  /** The value sorted by (numbers sort numerically, absent values last). */
  value: (row: Row) => string | number | undefined;
  /** What the cell shows; the value as text by default. */
  render?: (row: Row) => ComponentChildren;
  numeric?: boolean;
}

/**
 * A table whose column headers are buttons that sort by that column (again: the other way), with `aria-sort` on the
 * sorted header so screen readers say it.
 */
export function SortableTable<Row>(props: {
  label: string;
  columns: Array<Column<Row>>;
  rows: Row[];
  rowKey: (row: Row) => string;
  initialSort: string;
}) {
  const [sort, setSort] = useState<{ key: string; descending: boolean }>({ key: props.initialSort, descending: true });
  const column = props.columns.find((entry) => entry.key === sort.key) ?? props.columns[0]!;
  const rows = [...props.rows].sort((left, right) => compare(column.value(left), column.value(right), sort.descending));
  return (
    <div class="overflow-auto">
      <table class="striped" aria-label={props.label}>
        <thead>
          <tr>
            {props.columns.map((entry) => {
              const sorted = entry.key === sort.key;
              return (
                <th
                  key={entry.key}
                  scope="col"
                  aria-sort={sorted ? (sort.descending ? 'descending' : 'ascending') : 'none'}
                  class={entry.numeric ? 'numeric' : undefined}
                >
                  <button
                    type="button"
                    class="sort"
                    onClick={() => setSort({ key: entry.key, descending: sorted ? !sort.descending : true })}
                  >
                    {entry.label}
                    <span aria-hidden="true">{sorted ? (sort.descending ? ' ▼' : ' ▲') : ''}</span>
                  </button>
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={props.rowKey(row)}>
              {props.columns.map((entry, index) =>
                h(
                  index === 0 ? 'th' : 'td',
                  {
                    key: entry.key,
                    scope: index === 0 ? 'row' : undefined,
                    class: entry.numeric ? 'numeric' : undefined,
                  },
                  entry.render ? entry.render(row) : String(entry.value(row) ?? '–'),
                ),
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function compare(left: string | number | undefined, right: string | number | undefined, descending: boolean) {
  if (left === undefined && right === undefined) return 0;
  if (left === undefined) return 1;
  if (right === undefined) return -1;
  const order =
    typeof left === 'number' && typeof right === 'number' ? left - right : String(left).localeCompare(String(right));
  return descending ? -order : order;
}

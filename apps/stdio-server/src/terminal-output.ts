/** Output for people: plain tables on stdout, progress on stderr only when stderr is a terminal. */
import { truncateText } from '@search-mcp/shared';

export function formatTable(headers: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = headers.map((header, column) =>
    Math.max(header.length, ...rows.map((row) => (row[column] ?? '').length)),
  );
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, column) => cell.padEnd(widths[column] ?? 0))
      .join('  ')
      .trimEnd();
  return [line(headers), line(widths.map((width) => '─'.repeat(width))), ...rows.map(line)].join('\n');
}

export interface ProgressReporter {
  update(message: string): void;
  done(message?: string): void;
}

/** One rewriting status line on a terminal; silent when stderr is a pipe or a file (CI, MCP clients). */
export function createProgressReporter(stream: NodeJS.WriteStream = process.stderr): ProgressReporter {
  if (!stream.isTTY) return { update: () => {}, done: () => {} };
  let shown = false;
  return {
    update: (message) => {
      stream.write(`\r\x1b[2K${truncateText(message, (stream.columns ?? 100) - 1)}`);
      shown = true;
    },
    done: (message) => {
      if (shown) stream.write('\r\x1b[2K');
      if (message) stream.write(`${message}\n`);
      shown = false;
    },
  };
}

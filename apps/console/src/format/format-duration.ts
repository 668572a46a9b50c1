/**
 * Durations as people read them: "0.4 ms", "85 ms", "1.25 s", "2 min 5 s", "1 h 3 min". Absent values (a p95 without
 * calls) read as "–".
 */
export function formatDuration(milliseconds: number | undefined): string {
  if (milliseconds === undefined || !Number.isFinite(milliseconds) || milliseconds < 0) return '–';
  if (milliseconds < 10) return `${trim(milliseconds.toFixed(1))} ms`;
  if (milliseconds < 1000) return `${Math.round(milliseconds)} ms`;
  const seconds = milliseconds / 1000;
  if (seconds < 60) return `${trim(seconds.toFixed(seconds < 10 ? 2 : 1))} s`;
  const wholeSeconds = Math.round(seconds);
  const minutes = Math.floor(wholeSeconds / 60);
  if (minutes < 60) return `${minutes} min ${wholeSeconds % 60} s`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/** A share (0..1) as a percentage with at most one decimal: "0 %", "12.5 %", "100 %". */
export function formatPercent(share: number): string {
  if (!Number.isFinite(share)) return '–';
  return `${trim((share * 100).toFixed(1))} %`;
}

/** An ISO time as the reader's local time of day, with the date when it is not today. */
export function formatTime(iso: string, now: Date = new Date()): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const time = date.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit' });
  if (date.toDateString() === now.toDateString()) return time;
  return `${date.toLocaleDateString()} ${time}`;
}

function trim(fixed: string): string {
  return fixed.includes('.') ? fixed.replace(/\.?0+$/, '') : fixed;
}

import { describe, expect, it } from 'vitest';
import { formatDuration, formatPercent, formatTime } from './format-duration.js';

describe('formatDuration', () => {
  it('reads milliseconds, seconds, minutes and hours', () => {
    expect(formatDuration(0)).toBe('0 ms');
    expect(formatDuration(0.42)).toBe('0.4 ms');
    expect(formatDuration(85.4)).toBe('85 ms');
    expect(formatDuration(999.6)).toBe('1000 ms');
    expect(formatDuration(1250)).toBe('1.25 s');
    expect(formatDuration(12_340)).toBe('12.3 s');
    expect(formatDuration(125_000)).toBe('2 min 5 s');
    expect(formatDuration(3_780_000)).toBe('1 h 3 min');
  });

  it('shows a dash for what is absent or not a duration', () => {
    expect(formatDuration(undefined)).toBe('–');
    expect(formatDuration(Number.NaN)).toBe('–');
    expect(formatDuration(-1)).toBe('–');
  });
});

describe('formatPercent', () => {
  it('keeps at most one decimal', () => {
    expect(formatPercent(0)).toBe('0 %');
    expect(formatPercent(0.125)).toBe('12.5 %');
    expect(formatPercent(1 / 3)).toBe('33.3 %');
    expect(formatPercent(1)).toBe('100 %');
  });
});

describe('formatTime', () => {
  it('shows only the time for today and adds the date otherwise', () => {
    const now = new Date('2026-11-27T12:00:00');
    expect(formatTime('2026-11-27T10:11:12', now)).not.toContain(new Date('2026-11-27T10:11:12').toLocaleDateString());
    expect(formatTime('2026-11-20T10:11:12', now)).toContain(new Date('2026-11-20T10:11:12').toLocaleDateString());
    expect(formatTime('not a date', now)).toBe('not a date');
  });
});

import 'uplot/dist/uPlot.min.css';
import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import { type ChartColumns, isolatedPoints } from './chart-data.js';

export interface ChartLine {
  label: string;
  colour: string;
  /** Fill under the line (the call count), or a line only. */
  fill?: boolean;
  format: (value: number) => string;
}

/**
 * A time chart drawn by uPlot (a small, well-kept canvas chart library). The canvas says nothing to a screen reader,
 * so the figure carries a label and the page shows the same figures in tables.
 */
export function UsageChart({ title, columns, lines }: { title: string; columns: ChartColumns; lines: ChartLine[] }) {
  const container = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = container.current;
    if (!element) return;
    const text = getComputedStyle(document.documentElement).getPropertyValue('--pico-color').trim() || '#555';
    const grid =
      getComputedStyle(document.documentElement).getPropertyValue('--pico-muted-border-color').trim() || '#ddd';
    const axis = { stroke: text, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid, width: 1 } };
    const plot = new uPlot(
      {
        width: Math.max(element.clientWidth, 300),
        height: 220,
        scales: { x: { time: true }, y: { range: (_self, _min, max) => [0, Math.max(max, 1)] } },
        axes: [
          axis,
          {
            ...axis,
            // Room for labels such as "1.25 s" (uPlot's default fits short numbers only).
            size: 64,
            values: (_self, ticks) => ticks.map((tick) => lines[0]?.format(tick) ?? String(tick)),
          },
        ],
        series: [
          {},
          ...lines.map((line) => ({
            label: line.label,
            stroke: line.colour,
            width: 2,
            ...(line.fill ? { fill: `${line.colour}33` } : {}),
            // uPlot shows points only on sparse series, and a line needs two values: a value between gaps (all calls
            // of "Last hour" in one minute) would not be drawn at all, so it gets a dot.
            points: {
              show: true,
              size: 5,
              filter: (self: uPlot, seriesIndex: number) => isolatedPoints(self.data[seriesIndex] ?? []),
            },
            value: (_self: uPlot, value: number | null) => (value === null ? '–' : line.format(value)),
          })),
        ],
      },
      columns as uPlot.AlignedData,
      element,
    );
    const resize = new ResizeObserver(() => plot.setSize({ width: Math.max(element.clientWidth, 300), height: 220 }));
    resize.observe(element);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [columns, lines]);
  return (
    <figure>
      <figcaption>{title}</figcaption>
      <div ref={container} role="img" aria-label={`Chart: ${title}`} />
    </figure>
  );
}

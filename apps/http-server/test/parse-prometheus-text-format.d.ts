// The parser ships no types: the shape of what it returns (its README, "Example").
declare module 'parse-prometheus-text-format' {
  interface ParsedSample {
    value?: string;
    labels?: Record<string, string>;
    buckets?: Record<string, string>;
    quantiles?: Record<string, string>;
    count?: string;
    sum?: string;
  }
  interface ParsedFamily {
    name: string;
    help: string;
    type: 'COUNTER' | 'GAUGE' | 'HISTOGRAM' | 'SUMMARY' | 'UNTYPED';
    metrics: ParsedSample[];
  }
  export default function parsePrometheusTextFormat(text: string): ParsedFamily[];
}
